import { formatAmount } from '../../platform/money/format-amount';
import { escapeHtml } from '../../platform/http/html-page';
import { periodStart } from '../domain/renewal-schedule';
import type { IntervalUnit } from '../domain/checkout.events';
import { OrderView, SubscriptionView } from '../projections/checkout-read-model.projection';
import { page } from './hosted-pages.html';

/**
 * The buyer's subscription pages (issue 29 item 8; docs/checkout.md#subscriptions): what the receipt says about the
 * renewals, and the page where the buyer reads and cancels its subscription. The subscriptionId is the credential,
 * as for the self-service API; the address is on the receipt.
 */

/** Where the buyer manages (reads and cancels) a subscription. */
export const manageAddress = (subscriptionId: string) => `/subscriptions/${encodeURIComponent(subscriptionId)}`;

const EVERY: Record<IntervalUnit, string> = { MONTHLY: 'every month', YEARLY: 'every year' };

/** A time as the receipt writes it: "December 26, 2026 at 6:40 PM UTC". */
export function utcDateTime(iso: string): string {
  return `${new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
}

/** What a subscription receipt says: the interval, the next charge (or that it was cancelled), how to cancel. */
export interface SubscriptionTerms {
  subscriptionId: string;
  intervalUnit: IntervalUnit;
  amountMinorUnits: string;
  currency: string;
  status: 'ACTIVE' | 'CANCELLED';
  nextChargeAt: string | null;
  cancelledAt: string | null;
}

/**
 * The terms of the subscription an order started: from its read model, or (a moment after payment, before the
 * subscription is projected) from the order itself, the first renewal being one interval after the payment.
 */
export function subscriptionTerms(order: OrderView, sub: SubscriptionView | null): SubscriptionTerms | null {
  if (!order.subscriptionId || order.renewal) return null;
  if (sub)
    return {
      subscriptionId: sub.subscriptionId,
      intervalUnit: sub.intervalUnit,
      amountMinorUnits: sub.amountMinorUnits,
      currency: sub.currency,
      status: sub.status,
      nextChargeAt: sub.status === 'ACTIVE' ? sub.currentPeriodEnd : null,
      cancelledAt: sub.cancelledAt,
    };
  if (!order.subscriptionIntervalUnit || !order.paidAt) return null;
  return {
    subscriptionId: order.subscriptionId,
    intervalUnit: order.subscriptionIntervalUnit,
    amountMinorUnits: order.amountMinorUnits,
    currency: order.currency,
    status: 'ACTIVE',
    nextChargeAt: periodStart(new Date(order.paidAt), order.subscriptionIntervalUnit, 1).toISOString(),
    cancelledAt: null,
  };
}

/**
 * The receipt's lines about the renewals (inside its `<dl>`), and the way to cancel below it. Inside a frame
 * (`embed`) the link opens a new tab: the subscription page refuses to be framed.
 */
export function receiptSubscriptionLines(terms: SubscriptionTerms, embed = false): { rows: string; after: string } {
  const amount = formatAmount(terms.amountMinorUnits, terms.currency);
  const rows = `<dt>Subscription</dt><dd>${escapeHtml(`${amount} ${EVERY[terms.intervalUnit]}`)}</dd>
${
  terms.nextChargeAt
    ? `<dt>Next charge</dt><dd>${escapeHtml(`${amount} on ${utcDateTime(terms.nextChargeAt)}`)}</dd>`
    : `<dt>Status</dt><dd>Cancelled${terms.cancelledAt ? ` on ${escapeHtml(utcDateTime(terms.cancelledAt))}` : ''}: no more charges</dd>`
}
`;
  const after =
    terms.status === 'ACTIVE'
      ? `<p class="note" id="cancel-how">Your card is charged ${escapeHtml(`${amount} ${EVERY[terms.intervalUnit]}`)} until you cancel. You can cancel at any time, before a charge, on <a href="${escapeHtml(manageAddress(terms.subscriptionId))}"${embed ? ' target="_blank" rel="noopener"' : ''}>your subscription page</a>. Keep its address private: whoever has it can cancel.</p>`
      : '';
  return { rows, after };
}

/** The buyer's subscription page: its terms and, while it is active, the way to cancel it. */
export function subscriptionPage(sub: SubscriptionView, merchant: string, notice: string | null): string {
  const amount = formatAmount(sub.amountMinorUnits, sub.currency);
  const active = sub.status === 'ACTIVE';
  const state = active
    ? `<dt>Status</dt><dd>Active</dd>
<dt>Next charge</dt><dd>${escapeHtml(`${amount} on ${utcDateTime(sub.currentPeriodEnd)}`)}</dd>`
    : `<dt>Status</dt><dd>Cancelled${sub.cancelledAt ? ` on ${escapeHtml(utcDateTime(sub.cancelledAt))}` : ''}</dd>
<dt>Next charge</dt><dd>None: you will not be charged again</dd>`;
  const action = active
    ? `<a class="button" href="${escapeHtml(manageAddress(sub.subscriptionId))}/cancel">Cancel subscription</a>
<p class="note">Cancelling stops the charges from now on; what you already paid is not refunded.</p>`
    : `<p class="note">To subscribe again, start a new purchase at ${escapeHtml(merchant)}.</p>`;
  return page(
    `Your subscription to ${merchant}`,
    `<p class="merchant">${escapeHtml(merchant)}</p><h1>Your subscription</h1>
${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
<dl class="receipt">
<dt>Paid to</dt><dd>${escapeHtml(merchant)}</dd>
<dt>Amount</dt><dd>${escapeHtml(`${amount} ${EVERY[sub.intervalUnit]}`)}</dd>
<dt>Card</dt><dd>${escapeHtml(`${capitalise(sub.card.brand)} ending in ${sub.card.last4}`)}</dd>
${state}
<dt>Subscription</dt><dd>${escapeHtml(sub.subscriptionId)}</dd>
</dl>
${action}`,
    { embed: false },
  );
}

/** The confirmation before the cancel (works without script): what stops, what does not, one button to confirm. */
export function cancelSubscriptionPage(sub: SubscriptionView, merchant: string): string {
  const amount = formatAmount(sub.amountMinorUnits, sub.currency);
  const back = manageAddress(sub.subscriptionId);
  return page(
    `Cancel your subscription to ${merchant}?`,
    `<p class="merchant">${escapeHtml(merchant)}</p><h1 id="cancel-title">Cancel your subscription?</h1>
<p>${escapeHtml(merchant)} will no longer charge your ${escapeHtml(`${capitalise(sub.card.brand)} card ending in ${sub.card.last4}`)} ${escapeHtml(`${amount} ${EVERY[sub.intervalUnit]}`)}. The next charge, ${escapeHtml(`${amount} on ${utcDateTime(sub.currentPeriodEnd)}`)}, will not be made.</p>
<p class="note">What you already paid is not refunded. This cannot be undone: to subscribe again, start a new purchase.</p>
<form method="post" action="${escapeHtml(back)}/cancel" aria-labelledby="cancel-title"><button type="submit" class="danger">Yes, cancel my subscription</button></form>
<p><a href="${escapeHtml(back)}">No, keep my subscription</a></p>`,
    { embed: false },
  );
}

const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
