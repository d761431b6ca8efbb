import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { LIFECYCLE_STATUS, type SessionRef } from '../../payout-embed';
import { WebhookEventType } from '../domain/webhook-event-types';

/** Looks up facts a mapping needs that the event itself does not carry. */
export interface MappingLookups {
  /** The SME that created a Split (Split webhooks go to it). */
  splitOwner(splitId: string): Promise<string | null>;
}

export interface WebhookMapping {
  publicType: WebhookEventType;
  /** The company whose endpoints receive it; null drops the event (logged). */
  recipient(event: RecordedEvent, lookups: MappingLookups): Promise<string | null>;
  /** The `data` of the delivery body (docs/webhooks.md#body). */
  payload(event: RecordedEvent): Record<string, unknown>;
}

type SplitLegAData = { splitId: string; legAPayoutId: string };
const splitOwner = (event: RecordedEvent, lookups: MappingLookups) => lookups.splitOwner((event.data as { splitId: string }).splitId);
const thinSplitLegA = (event: RecordedEvent) => {
  const { splitId, legAPayoutId } = event.data as SplitLegAData;
  return { splitId, legAPayoutId };
};

/**
 * Domain event type -> public webhook event. Split payloads are thin (docs/webhooks.md#9-event-catalogue): the receiver reads
 * the current Split from the API; checkout and Payout Embed payloads are documented beside their rows.
 */
const thinRosterEntry = (event: RecordedEvent) => {
  const { splitId, rosterEntryId } = event.data as { splitId: string; rosterEntryId: string };
  return { splitId, rosterEntryId };
};
const thinSplit = (event: RecordedEvent) => ({ splitId: (event.data as { splitId: string }).splitId });

type CheckoutCompletedData = { merchantCompanyId: string; payoutId: string; amountMinorUnits: string; currency: string; provider: string; renewalOf: string | null };
/**
 * {payoutId, amount, currency, provider}, plus subscriptionId only on a renewal's delivery
 * (docs/webhooks.md#checkoutcompleted-sent-today).
 */
const checkoutCompleted = (event: RecordedEvent) => {
  const { payoutId, amountMinorUnits, currency, provider, renewalOf } = event.data as CheckoutCompletedData;
  return { payoutId, amount: amountMinorUnits, currency, provider, ...(renewalOf ? { subscriptionId: renewalOf } : {}) };
};
const merchantOf = async (event: RecordedEvent) => (event.data as CheckoutCompletedData).merchantCompanyId;

type SessionLifecycleData = SessionRef & { payoutId?: string; failureReason?: string };
/**
 * `{sessionId, status, amountCents, currency, payoutId?, failureReason?}` (docs/payout-embed.md#events):
 * payoutId once a payout exists (completed, failed), failureReason on failed. The session's company receives it.
 */
const payoutEmbedSession = (event: RecordedEvent) => {
  const { sessionId, amountCents, currency, payoutId, failureReason } = event.data as SessionLifecycleData;
  const status = LIFECYCLE_STATUS[event.type];
  const paidOut = status === 'completed' || status === 'failed';
  return { sessionId, status, amountCents, currency, ...(paidOut && payoutId ? { payoutId } : {}), ...(failureReason ? { failureReason } : {}) };
};
const sessionOwner = async (event: RecordedEvent) => (event.data as SessionLifecycleData).companyId;
const payoutEmbedMappings = Object.fromEntries(
  Object.keys(LIFECYCLE_STATUS).map((type) => [type, { publicType: type as WebhookEventType, recipient: sessionOwner, payload: payoutEmbedSession } satisfies WebhookMapping]),
);

export const WEBHOOK_MAPPINGS: Readonly<Record<string, WebhookMapping>> = {
  ...payoutEmbedMappings,
  'split.leg_a.approved': { publicType: 'split.leg_a.approved', recipient: splitOwner, payload: thinSplitLegA },
  'split.leg_a.rejected': { publicType: 'split.leg_a.rejected', recipient: splitOwner, payload: thinSplitLegA },
  'split.leg_a.claimed': { publicType: 'split.leg_a.claimed', recipient: splitOwner, payload: thinSplitLegA },
  'split.roster_entry.settled': { publicType: 'split.roster_entry.settled', recipient: splitOwner, payload: thinRosterEntry },
  'split.roster_entry.failed': { publicType: 'split.roster_entry.failed', recipient: splitOwner, payload: thinRosterEntry },
  'split.margin.settled': { publicType: 'split.margin.settled', recipient: splitOwner, payload: thinSplit },
  'checkout.order.completed': { publicType: 'checkout.completed', recipient: merchantOf, payload: checkoutCompleted },
};
