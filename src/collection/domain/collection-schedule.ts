import { Reminder } from './invoice.events';

const DAY_MS = 86_400_000;
/** Reminders to the AP contact: 3 days before the due date, on it, 7 days after (issue 27). */
export const REMINDER_BEFORE_DAYS = 3;
export const REMINDER_AFTER_DAYS = 7;

/**
 * When each step of an invoice's collection fires on the clock: BEFORE_DUE (a reminder; skipped when it
 * would come before the invoice was issued, as with net terms under 3 days), DUE (the invoice becomes
 * OVERDUE unless paid, and the day's reminder goes) and AFTER_DUE (a reminder). Paid invoices skip them all.
 */
export function invoiceSteps(issuedAt: string, dueAt: string): { step: Reminder; at: string }[] {
  const due = Date.parse(dueAt);
  const steps: { step: Reminder; at: string }[] = [];
  if (due - REMINDER_BEFORE_DAYS * DAY_MS > Date.parse(issuedAt)) steps.push({ step: 'BEFORE_DUE', at: new Date(due - REMINDER_BEFORE_DAYS * DAY_MS).toISOString() });
  steps.push({ step: 'DUE', at: dueAt }, { step: 'AFTER_DUE', at: new Date(due + REMINDER_AFTER_DAYS * DAY_MS).toISOString() });
  return steps;
}

/** Due at funding + the enterprise's net terms. */
export const dueDateOf = (fundedAt: string, netTermsDays: number) => new Date(Date.parse(fundedAt) + netTermsDays * DAY_MS).toISOString();
