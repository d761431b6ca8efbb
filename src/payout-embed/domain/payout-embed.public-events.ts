import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import { LIFECYCLE_STATUS, type SessionEvent, type SessionStatus } from './payout-embed.events';

/**
 * A Payout Embed session webhook payload (docs/payout-embed.md#events): payoutId once a payout exists
 * (completed, failed), failureReason on failed.
 */
export type PayoutEmbedSessionPayload = { sessionId: string; status: SessionStatus; amountCents: string; currency: string; payoutId?: string; failureReason?: string };

/** Session lifecycle events that are public webhook events; the public type is the event's own type. */
type LifecycleEvent = Extract<
  SessionEvent,
  {
    type:
      | 'payout_embed.session.created'
      | 'payout_embed.session.claimed'
      | 'payout_embed.session.completed'
      | 'payout_embed.session.failed'
      | 'payout_embed.session.expired'
      | 'payout_embed.session.cancelled';
  }
>;

/** The Payout Embed events other parties see as webhooks; each goes to the session's company. */
export type PayoutEmbedPublicEvent = { type: LifecycleEvent['type']; companyId: string; data: PayoutEmbedSessionPayload };

/** The public event a recorded session event becomes (its lifecycle events), or null. */
export function payoutEmbedPublicEvent(recorded: Pick<RecordedEvent, 'type' | 'data'>): PayoutEmbedPublicEvent | null {
  const status = LIFECYCLE_STATUS[recorded.type];
  if (!status) return null;
  const event = { type: recorded.type, data: recorded.data } as LifecycleEvent;
  const { sessionId, companyId, amountCents, currency } = event.data;
  const payoutId = event.type === 'payout_embed.session.completed' || event.type === 'payout_embed.session.failed' ? event.data.payoutId : undefined;
  const failureReason = event.type === 'payout_embed.session.failed' ? event.data.failureReason : undefined;
  return {
    type: event.type,
    companyId,
    data: { sessionId, status, amountCents, currency, ...(payoutId ? { payoutId } : {}), ...(failureReason ? { failureReason } : {}) },
  };
}
