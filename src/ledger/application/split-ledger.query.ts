import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { SplitQueries } from '../../split';
import { Posting } from '../domain/posting';
import { LEDGER_POSTINGS } from '../projections/ledger.projection';

export type PostingView = Omit<Posting, 'position' | 'splitId'>;

/**
 * Which companies may read a Split's postings: `'sme'`, only the SME that created it (an integration's
 * API key, as GET /splits/:id); `'party'`, the SME or the enterprise it bills (a dashboard session).
 */
export type LedgerReaders = 'sme' | 'party';

@Injectable()
export class SplitLedgerQuery {
  constructor(
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    private readonly splits: SplitQueries,
  ) {}

  /** The postings of a Split the caller may read, in the order they were made; 404 (SplitNotFoundError) for any other company. */
  async postingsFor(splitId: string, companyId: string, readers: LedgerReaders): Promise<PostingView[]> {
    // Another company's Split does not exist for the caller: 404, the same as GET /splits/:id.
    if (readers === 'sme') await this.splits.get(splitId, companyId);
    else await this.splits.getForParty(splitId, companyId);
    const postings = await this.store.find<Posting>(LEDGER_POSTINGS, { filter: { splitId }, sort: [{ field: 'sequence', direction: 'asc' }] });
    return postings.map(({ id, sequence, currency, kind, memo, postedAt, eventId, entries }) => ({ id, sequence, currency, kind, memo, postedAt, eventId, entries }));
  }
}
