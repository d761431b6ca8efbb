import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { balanceTransactionBatches, BalanceTransactionFilters, balanceTransactions, statements } from './books.query';

/** The books of some accounts' owners (a company, or a contractor's profiles and person), for the HTTP routes. */
@Injectable()
export class BooksQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly documents: DocumentReader) {}

  transactions(owners: string[], filters: BalanceTransactionFilters) {
    return balanceTransactions(this.documents, owners, filters);
  }

  /** Every matching line, newest first, a batch at a time (CSV exports). */
  allTransactions(owners: string[], filters: Omit<BalanceTransactionFilters, 'limit'>) {
    return balanceTransactionBatches(this.documents, owners, filters);
  }

  statements(owners: string[], period: { account?: string; currency?: string; from: string; to: string }) {
    return statements(this.documents, owners, period);
  }
}
