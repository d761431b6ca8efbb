import { DocumentReader, Filter } from '../../platform/read-store/document-store.port';
import { LedgerLineDoc } from '../projections/ledger-lines';
import { BalanceTransactionView, LINE_BOOKS, viewOfLine } from './books.query';

/** Per currency: what left accounts (debits) and what reached them (credits), in minor units. Equal when every posting balances. */
export type LineTotals = Map<string, { debits: bigint; credits: bigint; lines: number }>;

export function addToTotals(totals: LineTotals, currency: string, amountCents: bigint): void {
  const total = totals.get(currency) ?? { debits: 0n, credits: 0n, lines: 0 };
  if (amountCents < 0n) total.debits -= amountCents;
  else total.credits += amountCents;
  total.lines += 1;
  totals.set(currency, total);
}

export function formatTotals(totals: LineTotals): string {
  const parts = [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, t]) => `${currency} ${t.lines} lines, debits ${t.debits}, credits ${t.credits}`);
  return parts.length ? parts.join('; ') : 'no lines';
}

/**
 * Every ledger line posted in [from, to), oldest first (of one company's accounts, or all), read page by
 * page in log order so a year of lines never sits in memory: `ledger:export` writes them as CSV. Its
 * totals over the whole log are the ones ledger:verify prints from the replayed postings.
 */
export async function* exportLines(
  documents: DocumentReader,
  query: { from: string; to: string; company?: string },
  totals: LineTotals,
  pageSize = 2000,
): AsyncGenerator<BalanceTransactionView> {
  const filter: Filter = query.company ? { owner: query.company } : {};
  // The ledger's lines and the checkout books' lines, each read in key order, merged by key (log order).
  const readers = LINE_BOOKS.map((books) => linesInOrder(documents, books.lines, filter, query, pageSize));
  const heads = await Promise.all(readers.map((reader) => reader.next()));
  for (;;) {
    let next = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i]!;
      if (!head.done && (next < 0 || head.value.key < (heads[next]!.value as LedgerLineDoc).key)) next = i;
    }
    if (next < 0) return;
    const line = heads[next]!.value as LedgerLineDoc;
    addToTotals(totals, line.currency, BigInt(line.amountCents));
    yield viewOfLine(line);
    heads[next] = await readers[next]!.next();
  }
}

/** One collection's lines posted in [from, to), in key order, read page by page. */
async function* linesInOrder(documents: DocumentReader, collection: string, filter: Filter, query: { from: string; to: string }, pageSize: number): AsyncGenerator<LedgerLineDoc> {
  let after: string | undefined;
  for (;;) {
    const page = await documents.find<LedgerLineDoc>(collection, {
      filter,
      range: { ...(after ? { key: { gt: after } } : {}), postedAt: { gte: query.from, lt: query.to } },
      sort: [{ field: 'key', direction: 'asc' }],
      limit: pageSize,
    });
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.key;
  }
}
