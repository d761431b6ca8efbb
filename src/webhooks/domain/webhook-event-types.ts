/** The public event catalogue (docs/webhooks.md#9-event-catalogue): what endpoints subscribe to and receivers see in X-Paysplit-Event. */
export const WEBHOOK_EVENT_TYPES = [
  'checkout.completed',
  'checkout.refunded',
  'payout_embed.session.created',
  'payout_embed.session.claimed',
  'payout_embed.session.completed',
  'payout_embed.session.failed',
  'payout_embed.session.expired',
  'payout_embed.session.cancelled',
  'split.leg_a.approved',
  'split.leg_a.rejected',
  'split.leg_a.claimed',
  'split.roster_entry.settled',
  'split.roster_entry.failed',
  'split.margin.settled',
  'split.roster_entry.reversed',
  // Issue 27: the Split's invoice, sent to both the SME and the enterprise.
  'split.invoice.paid',
  'split.invoice.overdue',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by POST /endpoints/:id/test; not subscribable. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Retries after a failed attempt (docs/webhooks.md#6-retries-and-probation): 5 min, 15 min, 1 h, 1 day, 3 days, 7 days. */
export const RETRY_DELAYS_SECONDS = [300, 900, 3600, 86_400, 3 * 86_400, 7 * 86_400] as const;
/** An endpoint on probation gets only the first two retries. */
export const PROBATION_RETRIES = 2;
