import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, ReadStore } from '../../platform/read-store/read-store.port';
import { Posting } from '../domain/posting';
import { LEDGER_POSTINGS } from '../projections/ledger.projection';

export type PostingView = Omit<Posting, 'position' | 'splitId'>;

@Injectable()
export class SplitLedgerQuery {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** A Split's postings in the order they were made (the caller has already checked ownership). */
  async postings(splitId: string): Promise<PostingView[]> {
    const postings = await this.store.find<Posting>(LEDGER_POSTINGS, { filter: { splitId }, sort: [{ field: 'sequence', direction: 'asc' }] });
    return postings.map(({ id, sequence, currency, kind, memo, postedAt, eventId, entries }) => ({ id, sequence, currency, kind, memo, postedAt, eventId, entries }));
  }
}
