import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../platform/event-store/event-store.port';
import { Doc, DocumentReader } from '../../platform/read-store/document-store.port';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { payoutStreamId } from '../../payouts';
import { SplitNotFoundError } from '../domain/split.errors';
import { splitStreamId } from '../domain/split.events';
import { SplitReadModelProjection, SPLITS, SplitView } from '../projections/split-read-model.projection';

export interface SplitHistoryEntry {
  revision: number;
  type: string;
  occurredAt: string;
  actor: string;
  data: unknown;
}

const EMPTY: DocumentReader = {
  get: async () => null,
  find: async () => [],
  count: async () => 0,
};

/**
 * What auditors ask: every event of a Split in order, and the Split as it stood at a past moment,
 * folded from its own events by the same code that builds the read model.
 */
@Injectable()
export class SplitHistory {
  private readonly projection = new SplitReadModelProjection();

  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async history(splitId: string, companyId: string | null): Promise<SplitHistoryEntry[]> {
    const events = await this.ownedEvents(splitId, companyId);
    return events.map((event) => ({
      revision: event.revision,
      type: event.type,
      occurredAt: event.metadata.occurredAt,
      actor: event.metadata.actor,
      data: event.data,
    }));
  }

  /**
   * The Split as of `at`; 404 when it did not exist yet. A row's status is its transfer payout's status
   * (as in the read model), so the events of the Split's transfer payouts are folded in too, in log order.
   */
  async asOf(splitId: string, companyId: string | null, at: Date): Promise<SplitView> {
    const own = await this.ownedEvents(splitId, companyId);
    const payoutIds = new Set(own.filter((event) => event.type === 'split.roster_entry.transfer_started').map((event) => (event.data as { payoutId: string }).payoutId));
    const payouts = await Promise.all([...payoutIds].map((payoutId) => this.events.readStream(payoutStreamId(payoutId))));
    const events = [...own, ...payouts.flat()].filter((event) => Date.parse(event.metadata.occurredAt) <= at.getTime()).sort((a, b) => a.position - b.position);
    const writer = new StagedWriter(EMPTY);
    for (const event of events) await this.projection.apply(event, writer);
    const split = await writer.get<SplitView & Doc>(SPLITS, splitId);
    if (!split) throw new SplitNotFoundError();
    return split;
  }

  /** companyId null: an operator (CLI) may read any Split. */
  private async ownedEvents(splitId: string, companyId: string | null): Promise<RecordedEvent[]> {
    const events = await this.events.readStream(splitStreamId(splitId));
    const created = events[0]?.data as { smeCompanyId?: string } | undefined;
    if (!created || (companyId !== null && created.smeCompanyId !== companyId)) throw new SplitNotFoundError();
    return events;
  }
}
