import { Inject, Injectable } from '@nestjs/common';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { Page } from '../../platform/http/envelope';
import { DOCUMENT_READER, DocumentReader, Filter } from '../../platform/read-store/document-store.port';
import { splitDecider } from '../domain/split.decider';
import { SplitNotFoundError } from '../domain/split.errors';
import { splitStreamId } from '../domain/split.events';
import { splitExists, type SplitStatus } from '../domain/split.state';
import { audienceOf, SplitAudience, splitViewFor } from './split-audience';
import { SPLITS, SplitView, withRowDefaults } from '../projections/split-read-model.projection';

/** The side a company reads a Split from; each sees its own field list (split-audience.ts). */
export type SplitParty = SplitAudience;

/**
 * Reads Splits for one company, in the shape its side may see (the SME's, or the enterprise's without contractor
 * emails); another company's Split does not exist for the caller (404, never 403).
 */
@Injectable()
export class SplitQueries {
  constructor(
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    private readonly aggregates: AggregateRepository,
  ) {}

  async get(splitId: string, companyId: string, as: SplitParty = 'sme'): Promise<SplitView> {
    const split = await this.store.get<SplitView>(SPLITS, splitId);
    const owner = as === 'sme' ? split?.smeCompanyId : split?.enterpriseCompanyId;
    if (!split || owner !== companyId) throw new SplitNotFoundError();
    return splitViewFor(await this.withRevision(split), as);
  }

  /** A Split the caller is a party to, as the SME that created it or the enterprise it bills; 404 for anyone else. */
  async getForParty(splitId: string, companyId: string): Promise<SplitView> {
    const split = await this.store.get<SplitView>(SPLITS, splitId);
    if (!split || (split.smeCompanyId !== companyId && split.enterpriseCompanyId !== companyId)) throw new SplitNotFoundError();
    return splitViewFor(await this.withRevision(split), audienceOf(split, companyId));
  }

  /** Newest first; `status` narrows to Splits in that status. */
  async list(companyId: string, as: SplitParty, page: number, limit: number, status?: SplitStatus): Promise<Page<SplitView>> {
    const filter: Filter = { [as === 'sme' ? 'smeCompanyId' : 'enterpriseCompanyId']: companyId };
    if (status !== undefined) filter.status = status;
    const [items, total] = await Promise.all([
      this.store.find<SplitView>(SPLITS, {
        filter,
        sort: [
          { field: 'createdAt', direction: 'desc' },
          { field: 'id', direction: 'desc' },
        ],
        skip: (page - 1) * limit,
        limit,
      }),
      this.store.count(SPLITS, filter),
    ]);
    return Page.of(await Promise.all(items.map(async (split) => splitViewFor(await this.withRevision(split), as))), page, limit, total);
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
