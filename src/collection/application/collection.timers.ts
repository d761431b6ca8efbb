import { defineTimer } from '../../platform/timers/timer-definition';
import { Reminder } from '../domain/invoice.events';

/** One step of an invoice's collection (domain/collection-schedule.ts): a reminder, or the due date (overdue + that day's reminder). */
export const invoiceStepTimer = defineTimer<{ invoiceId: string; step: Reminder }>('collection.invoice_step', (p) => [p.invoiceId, p.step]);
