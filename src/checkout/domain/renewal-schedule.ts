import { IntervalUnit } from './checkout.events';

/**
 * The start of period `n` of a subscription anchored at `anchor` (period 0 starts at the anchor).
 * Always computed from the anchor, never from the previous date, so a month-end anchor clamps to short
 * months and comes back: Jan 31 -> Feb 28 (29 in a leap year) -> Mar 31 -> Apr 30. The time of day (UTC)
 * is the anchor's. YEARLY is 12 months (Feb 29 -> Feb 28 in common years).
 */
export function periodStart(anchor: Date, unit: IntervalUnit, n: number): Date {
  if (!Number.isInteger(n) || n < 0) throw new Error(`period index must be a non-negative integer, got ${n}`);
  const months = unit === 'MONTHLY' ? n : 12 * n;
  const totalMonths = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  return new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
}

export function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

const DAY_MS = 86_400_000;
/** A declined renewal is retried 1 day after the first decline and 3 days after the second (docs/checkout.md#subscriptions). */
export const DECLINE_RETRY_DELAYS_MS = [1 * DAY_MS, 3 * DAY_MS] as const;
/** The 3rd consecutive decline cancels the subscription (docs/checkout.md#subscriptions). */
export const MAX_CONSECUTIVE_DECLINES = 3;
