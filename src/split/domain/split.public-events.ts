import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import { SPLIT_EVENT_TYPES, type SplitEvent } from './split.events';

/**
 * The Split events other parties see as webhooks (docs/webhooks.md#9-event-catalogue), with their public
 * payloads. They are thin on purpose: the receiver reads the current Split from the API. A Split webhook
 * goes to the SME that created the Split; `splitId` is what webhooks looks that company up by
 * (`splitOwner` in application/split-owner.ts).
 */
export type SplitLegAPayload = { splitId: string; legAPayoutId: string };
export type SplitRosterEntryPayload = { splitId: string; rosterEntryId: string };
export type SplitMarginPayload = { splitId: string };
/** Issue 26: `final` is true when the row failed for good (past the retry horizon) and waits for the SME; false while it is retried. */
export type SplitRosterEntryFailedPayload = { splitId: string; rosterEntryId: string; final: boolean };
export type SplitRosterEntryReversedPayload = { splitId: string; rosterEntryId: string; reversalId: string; amountCents: string };

export type SplitPublicEvent =
  | { type: 'split.leg_a.approved' | 'split.leg_a.rejected' | 'split.leg_a.claimed'; splitId: string; data: SplitLegAPayload }
  | { type: 'split.roster_entry.settled'; splitId: string; data: SplitRosterEntryPayload }
  | { type: 'split.roster_entry.failed'; splitId: string; data: SplitRosterEntryFailedPayload }
  | { type: 'split.roster_entry.reversed'; splitId: string; data: SplitRosterEntryReversedPayload }
  | { type: 'split.margin.settled'; splitId: string; data: SplitMarginPayload };

/** The public event a recorded Split event becomes, or null for an internal one (or another module's). */
export function splitPublicEvent(recorded: Pick<RecordedEvent, 'type' | 'data'>): SplitPublicEvent | null {
  if (!SPLIT_EVENT_TYPES.has(recorded.type)) return null;
  const event = { type: recorded.type, data: recorded.data } as SplitEvent;
  switch (event.type) {
    case 'split.leg_a.approved':
    case 'split.leg_a.rejected':
    case 'split.leg_a.claimed': {
      const { splitId, legAPayoutId } = event.data;
      return { type: event.type, splitId, data: { splitId, legAPayoutId } };
    }
    case 'split.roster_entry.settled': {
      const { splitId, rosterEntryId } = event.data;
      return { type: event.type, splitId, data: { splitId, rosterEntryId } };
    }
    case 'split.roster_entry.failed':
    case 'split.roster_entry.failed_for_good': {
      const { splitId, rosterEntryId } = event.data;
      return { type: 'split.roster_entry.failed', splitId, data: { splitId, rosterEntryId, final: event.type === 'split.roster_entry.failed_for_good' } };
    }
    case 'split.roster_entry.reversed': {
      const { splitId, rosterEntryId, reversalId, amountCents } = event.data;
      return { type: event.type, splitId, data: { splitId, rosterEntryId, reversalId, amountCents } };
    }
    case 'split.margin.settled':
      return { type: event.type, splitId: event.data.splitId, data: { splitId: event.data.splitId } };
    default:
      return null;
  }
}
