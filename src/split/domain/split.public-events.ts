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

export type SplitPublicEvent =
  | { type: 'split.leg_a.approved' | 'split.leg_a.rejected' | 'split.leg_a.claimed'; splitId: string; data: SplitLegAPayload }
  | { type: 'split.roster_entry.settled' | 'split.roster_entry.failed'; splitId: string; data: SplitRosterEntryPayload }
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
    case 'split.roster_entry.settled':
    case 'split.roster_entry.failed': {
      const { splitId, rosterEntryId } = event.data;
      return { type: event.type, splitId, data: { splitId, rosterEntryId } };
    }
    case 'split.margin.settled':
      return { type: event.type, splitId: event.data.splitId, data: { splitId: event.data.splitId } };
    default:
      return null;
  }
}
