import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../platform/event-store/event-store.port';
import { Doc, DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { actorNames } from '../../identity';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { payoutStreamId } from '../../payouts';
import { SplitNotFoundError } from '../domain/split.errors';
import { splitStreamId } from '../domain/split.events';
import { SplitReadModelProjection, SPLITS, SplitView } from '../projections/split-read-model.projection';
import { INVOICE_STREAM_PREFIX, invoiceIdOf } from '../domain/split-collection';
import { historyEntryFor, SplitAudience, SplitHistoryEntry, splitViewFor } from './split-audience';

/** One event as recorded, for an operator (the CLI): the raw data, never sent over HTTP. */
export interface RawSplitHistoryEntry {
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

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  /**
   * The Split's events as `companyId` may read them (split-audience.ts), when it is one of `parties` of the
   * Split (404 otherwise): explicit fields per event type and audience, never the event data itself.
   */
  async history(splitId: string, companyId: string, parties: readonly SplitAudience[] = ['sme']): Promise<SplitHistoryEntry[]> {
    const { events, audience } = await this.partyEvents(splitId, companyId, parties);
    const entries = events.map((event) => historyEntryFor(event, audience)).filter((entry): entry is SplitHistoryEntry => entry !== null);
    // Issue 30: who acted, by name: the reader's own members (email) and keys; the other company's stay its party.
    const names = await actorNames(
      this.documents,
      companyId,
      entries.map((entry) => entry.actor),
    );
    return entries.map((entry) => ({ ...entry, actorName: names[entry.actor] ?? null }));
  }

  /** Every event with its recorded data, for an operator at the command line (splits:history). */
  async operatorHistory(splitId: string): Promise<RawSplitHistoryEntry[]> {
    const { events } = await this.partyEvents(splitId, null, []);
    return events.map((event) => ({ revision: event.revision, type: event.type, occurredAt: event.metadata.occurredAt, actor: event.metadata.actor, data: event.data }));
  }

  /**
   * The Split as of `at`; 404 when it did not exist yet. A row's status is its transfer payout's status
   * (as in the read model), so the events of the Split's transfer payouts are folded in too, in log order.
   */
  async asOf(splitId: string, companyId: string | null, at: Date, parties: readonly SplitAudience[] = ['sme']): Promise<SplitView> {
    const { events: own, audience } = await this.partyEvents(splitId, companyId, parties);
    const payoutIds = new Set(own.filter((event) => event.type === 'split.roster_entry.transfer_started').map((event) => (event.data as { payoutId: string }).payoutId));
    const payouts = await Promise.all([...payoutIds].map((payoutId) => this.events.readStream(payoutStreamId(payoutId))));
    // Its invoice's events too (issue 27): the collection status as it stood.
    const invoice = await this.events.readStream(`${INVOICE_STREAM_PREFIX}${invoiceIdOf(splitId)}`);
    const events = [...own, ...payouts.flat(), ...invoice].filter((event) => Date.parse(event.metadata.occurredAt) <= at.getTime()).sort((a, b) => a.position - b.position);
    const writer = new StagedWriter(EMPTY);
    for (const event of events) await this.projection.apply(event, writer);
    const stored = await writer.get<SplitView & Doc>(SPLITS, splitId);
    if (!stored) throw new SplitNotFoundError();
    // The due date is bookkeeping; why a Split waited is not kept, so a past view never claims it.
    const { invoiceDueAt, ...split } = stored;
    return splitViewFor({ ...split, invoiceId: split.invoiceId ?? null, collectionStatus: split.collectionStatus ?? null, approvalBlockedReason: null }, audience);
  }

  /** companyId null: an operator (CLI) may read any Split, as the SME does. Any other company: 404. */
  private async partyEvents(splitId: string, companyId: string | null, parties: readonly SplitAudience[]): Promise<{ events: RecordedEvent[]; audience: SplitAudience }> {
    const events = await this.events.readStream(splitStreamId(splitId));
    const created = events[0]?.data as { smeCompanyId?: string; enterpriseCompanyId?: string } | undefined;
    if (!created) throw new SplitNotFoundError();
    if (companyId === null) return { events, audience: 'sme' };
    const audience = parties.find((party) => (party === 'sme' ? created.smeCompanyId : created.enterpriseCompanyId) === companyId);
    if (audience === undefined) throw new SplitNotFoundError();
    return { events, audience };
  }
}
