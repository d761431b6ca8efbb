import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { Page } from '../../platform/http/envelope';
import { DOCUMENT_READER, DocumentReader, Filter, Range } from '../../platform/read-store/document-store.port';
import { findPage } from '../../platform/read-store/find-page';
import { splitDecider } from '../domain/split.decider';
import { SplitNotFoundError } from '../domain/split.errors';
import { splitStreamId } from '../domain/split.events';
import { splitExists, type SplitStatus } from '../domain/split.state';
import type { CollectionStatus } from '../domain/split-collection';
import { audienceOf, SplitAudience, splitViewFor } from './split-audience';
import { SPLITS, SPLITS_PROJECTION, SplitView, withRowDefaults } from '../projections/split-read-model.projection';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';

/** The side a company reads a Split from; each sees its own field list (split-audience.ts). */
export type SplitParty = SplitAudience;

/**
 * Reads Splits for one company, in the shape its side may see (the SME's, or the enterprise's without contractor
 * emails); another company's Split does not exist for the caller (404, never 403). Create and approve answer
 * without waiting for the `splits` projection, so the reads wait for it instead: a Split read by id reflects
 * every event of its stream, a list every event written before it was asked (docs/decisions.md, "Split create
 * and approve answer from the Split's own events").
 */
@Injectable()
export class SplitQueries {
  constructor(
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * An invoice of the enterprise's that is overdue more than ENTERPRISE_OVERDUE_BLOCK_DAYS (issue 27), or
   * null: while there is one, the enterprise cannot approve Splits and its auto-accept is suspended.
   */
  async overdueInvoiceOf(enterpriseCompanyId: string): Promise<{ invoiceId: string; dueAt: string; daysOverdue: number } | null> {
    const filter = { enterpriseCompanyId, collectionStatus: 'OVERDUE' };
    // Most enterprises have no overdue bill: a count answers that from the index alone, without the
    // documents a find reads and sorts (under a third of the find's time; docs/decisions.md, session 45).
    if ((await this.store.count(SPLITS, filter)) === 0) return null;
    const overdue = await this.store.find<SplitView>(SPLITS, { filter });
    const now = this.clock.now().getTime();
    const limitMs = this.config.enterpriseOverdueBlockDays * 86_400_000;
    const blocking = overdue
      .filter((split) => split.invoiceId && split.invoiceDueAt && now - Date.parse(split.invoiceDueAt) > limitMs)
      .sort((a, b) => a.invoiceDueAt!.localeCompare(b.invoiceDueAt!));
    const oldest = blocking[0];
    if (!oldest) return null;
    return { invoiceId: oldest.invoiceId!, dueAt: oldest.invoiceDueAt!, daysOverdue: Math.floor((now - Date.parse(oldest.invoiceDueAt!)) / 86_400_000) };
  }

  /**
   * `enterpriseBlocked`: whether the enterprise has a blocking overdue invoice, when the caller has just
   * looked it up (a create decided on it a moment ago); otherwise the view looks it up itself.
   */
  async get(splitId: string, companyId: string, as: SplitParty = 'sme', known: { enterpriseBlocked?: boolean } = {}): Promise<SplitView> {
    const split = await this.current(splitId);
    const owner = as === 'sme' ? split?.smeCompanyId : split?.enterpriseCompanyId;
    if (!split || owner !== companyId) throw new SplitNotFoundError();
    return this.shownTo(split, as, known);
  }

  /** A Split document (stored, or folded from its events by a write that answers with it) as `as` sees it. */
  async shownTo(split: SplitView, as: SplitParty, { enterpriseBlocked }: { enterpriseBlocked?: boolean } = {}): Promise<SplitView> {
    return splitViewFor(await this.shown(split, enterpriseBlocked === undefined ? undefined : async () => enterpriseBlocked), as);
  }

  /** A Split the caller is a party to, as the SME that created it or the enterprise it bills; 404 for anyone else. */
  async getForParty(splitId: string, companyId: string): Promise<SplitView> {
    const split = await this.current(splitId);
    if (!split || (split.smeCompanyId !== companyId && split.enterpriseCompanyId !== companyId)) throw new SplitNotFoundError();
    return splitViewFor(await this.shown(split), audienceOf(split, companyId));
  }

  /** Newest first; `status` narrows to Splits in that status, `collection` to Splits whose bill is in one of these statuses. */
  async list(companyId: string, as: SplitParty, page: number, limit: number, status?: SplitStatus, collection?: readonly CollectionStatus[]): Promise<Page<SplitView>> {
    await this.readYourWrites.afterHead([SPLITS_PROJECTION]);
    const filter: Filter = { [as === 'sme' ? 'smeCompanyId' : 'enterpriseCompanyId']: companyId };
    if (status !== undefined) filter.status = status;
    const sort = [...SplitQueries.NEWEST_FIRST];
    const range: Range = collection === undefined ? {} : { collectionStatus: { oneOf: collection } };
    const [items, total] = await findPage<SplitView>(this.store, SPLITS, { filter, range, sort }, page, limit);
    const blocked = new Map<string, Promise<boolean>>();
    const isBlocked = (enterpriseId: string) => {
      if (!blocked.has(enterpriseId))
        blocked.set(
          enterpriseId,
          this.overdueInvoiceOf(enterpriseId).then((found) => found !== null),
        );
      return blocked.get(enterpriseId)!;
    };
    return Page.of(await Promise.all(items.map(async (split) => splitViewFor(await this.shown(split, isBlocked), as))), page, limit, total);
  }

  /**
   * The Split's document, never older than a create or approve already answered (null: no such Split).
   * Those answer before the projection applies them, and only on a Split that is not yet approved: a
   * missing or still pending document may be behind its stream, so the read waits for the projection to
   * hold the whole stream. Any other document is as current as the writes that answered: every other
   * write waits for the projection before it answers, and the worker's own events are not the caller's.
   */
  private async current(splitId: string): Promise<SplitView | null> {
    const stored = await this.store.get<SplitView>(SPLITS, splitId);
    if (stored && stored.status !== 'PENDING_APPROVAL') return stored;
    await this.readYourWrites.afterStream(splitStreamId(splitId), [SPLITS_PROJECTION]);
    return this.store.get<SplitView>(SPLITS, splitId);
  }

  private static readonly NEWEST_FIRST = [
    { field: 'createdAt', direction: 'desc' },
    { field: 'id', direction: 'desc' },
  ] as const;

  /**
   * The document as the API shows it: the collection fields (null on documents written before issue 27),
   * why a pending Split waits (an enterprise blocked by an overdue invoice), never the stored due date.
   */
  private async shown(split: SplitView, isBlocked = (enterpriseId: string) => this.overdueInvoiceOf(enterpriseId).then((found) => found !== null)): Promise<SplitView> {
    const { invoiceDueAt, ...stored } = await this.withRevision(split);
    const waits = stored.status === 'PENDING_APPROVAL' && (await isBlocked(stored.enterpriseCompanyId));
    return {
      ...stored,
      invoiceId: stored.invoiceId ?? null,
      collectionStatus: stored.collectionStatus ?? null,
      approvalBlockedReason: waits ? 'ENTERPRISE_INVOICE_OVERDUE' : null,
    };
  }

  /**
   * A document the projection wrote before Splits had a revision lacks it until `projections:rebuild splits`
   * (docs/operations.md): it is folded from the Split's events by the decider, the number approve checks.
   */
  private async withRevision(stored: SplitView): Promise<SplitView> {
    const split = withRowDefaults(stored);
    if (split.revision !== undefined) return split;
    const { state } = await this.aggregates.load(splitStreamId(split.id), splitDecider);
    return splitExists(state) ? { ...split, revision: state.revision } : split;
  }
}
