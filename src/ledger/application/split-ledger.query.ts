import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { Posting } from '../domain/posting';
import { LEDGER_POSTINGS } from '../projections/ledger.projection';

export type PostingView = Omit<Posting, 'position' | 'splitId'>;

@Injectable()
export class SplitLedgerQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly store: DocumentReader) {}

  /** A Split's postings in the order they were made (the caller has already checked ownership). */
  async postings(splitId: string): Promise<PostingView[]> {
    const postings = await this.store.find<Posting>(LEDGER_POSTINGS, { filter: { splitId }, sort: [{ field: 'sequence', direction: 'asc' }] });
    return postings.map(({ id, sequence, currency, kind, memo, postedAt, eventId, entries }) => ({ id, sequence, currency, kind, memo, postedAt, eventId, entries }));
  }
}
