import { DocumentReader, Filter, Range } from '../../platform/read-store/document-store.port';
import { ValidationFailedError } from '../../platform/domain/domain-error';
import {
  AccountBalanceDoc,
  CompanyBalanceHistoryDoc,
  keyOfLineId,
  LEDGER_ACCOUNT_BALANCES,
  LEDGER_COMPANY_BALANCE_HISTORY,
  LEDGER_LINES,
  LedgerLineDoc,
} from '../projections/ledger-lines';
import { CompanyBalanceDoc, LEDGER_COMPANY_BALANCES } from '../projections/ledger.projection';
import { LEDGER_CHECKOUT_LINE_BALANCES, LEDGER_CHECKOUT_LINES } from '../projections/checkout-books.projection';

/**
 * Where ledger lines are, each with its accounts' running balances: the ledger projection's (Splits,
 * balances, Payout Embed, withdrawals, collection) and the checkout books' (checkout-books.projection.ts).
 * Their accounts never overlap and their line keys never collide, so a list of lines is a merge by key.
 */
export const LINE_BOOKS = [
  { lines: LEDGER_LINES, balances: LEDGER_ACCOUNT_BALANCES },
  { lines: LEDGER_CHECKOUT_LINES, balances: LEDGER_CHECKOUT_LINE_BALANCES },
] as const;

const byKeyDesc = (a: LedgerLineDoc, b: LedgerLineDoc) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);

// How the books are read (issue 28): balance transactions, statements, balances as of a time. Other
// modules (earnings) call these functions with the accounts' owners they may show, never by collection.

/** One row of GET /api/commerce/balance-transactions: a ledger line on one of the caller's accounts. */
export interface BalanceTransactionView {
  id: string;
  account: string;
  accountType: string;
  currency: string;
  amountCents: string;
  balanceAfterCents: string;
  type: string;
  source: string;
  postingId: string;
  eventId: string;
  postedAt: string;
  description: string;
}

export interface BalanceTransactionFilters {
  currency?: string;
  type?: string;
  /** An account kind (`company_balance`) or a whole account (`company_balance:co_...`). */
  account?: string;
  source?: string;
  /** Inclusive start, exclusive end (canonical ISO UTC). */
  from?: string;
  to?: string;
  /** The id of the last row of the previous page: this page starts after it (older). */
  cursor?: string;
  limit: number;
}

export const viewOfLine = (line: LedgerLineDoc): BalanceTransactionView => ({
  id: line.id,
  account: line.account,
  accountType: line.accountType,
  currency: line.currency,
  amountCents: line.amountCents,
  balanceAfterCents: line.balanceAfterCents,
  type: line.type,
  source: line.source,
  postingId: line.postingId,
  eventId: line.eventId,
  postedAt: line.postedAt,
  description: line.memo,
});

function lineFilter(owner: string, filters: Omit<BalanceTransactionFilters, 'limit' | 'cursor'>): Filter {
  const filter: Filter = { owner };
  if (filters.currency) filter.currency = filters.currency;
  if (filters.type) filter.type = filters.type;
  if (filters.source) filter.source = filters.source;
  if (filters.account) {
    if (filters.account.includes(':')) filter.account = filters.account;
    else filter.accountType = filters.account;
  }
  return filter;
}

function cursorKey(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const key = keyOfLineId(cursor);
  if (!key) throw new ValidationFailedError('cursor is not a balance transaction id', [{ field: 'cursor', message: 'must be the id of a balance transaction (bt_...)' }]);
  return key;
}

/** Lines older than the key `before` (if any), posted in [from, to) (if given). */
function lineRange(before: string | undefined, filters: Pick<BalanceTransactionFilters, 'from' | 'to'>): Range {
  const range: Range = {};
  if (before) range.key = { lt: before };
  if (filters.from || filters.to) range.postedAt = { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lt: filters.to } : {}) };
  return range;
}

/**
 * A page of the lines on the owners' accounts, newest first. The cursor is a line id, whose key only
 * grows with the log: rows that arrive while a client walks the pages come before its first page, never
 * inside the walk.
 */
export async function balanceTransactions(documents: DocumentReader, owners: string[], filters: BalanceTransactionFilters): Promise<BalanceTransactionView[]> {
  const range = lineRange(cursorKey(filters.cursor), filters);
  const pages = await Promise.all(
    owners.flatMap((owner) =>
      LINE_BOOKS.map((books) =>
        documents.find<LedgerLineDoc>(books.lines, { filter: lineFilter(owner, filters), range, sort: [{ field: 'key', direction: 'desc' }], limit: filters.limit }),
      ),
    ),
  );
  // Each page is in order; several (the checkout books' lines, a contractor's profiles) are merged by key.
  const filled = pages.filter((page) => page.length > 0);
  const lines = filled.length <= 1 ? (filled[0] ?? []) : filled.flat().sort(byKeyDesc);
  return lines.slice(0, filters.limit).map(viewOfLine);
}

/** Lines a CSV export reads at a time from each collection (and hands on at a time to the CSV writer). */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * Every line on the owners' accounts matching the filters, newest first, a batch at a time, as stored
 * (for CSV exports: LEDGER_LINE_CSV formats them as balance transactions). Each collection of each owner is read page by page on its own cursor (the key of the last
 * line it gave: rows that arrive meanwhile are newer and never come inside the walk), and the already
 * sorted streams are merged by key, so every line is read once and nothing is sorted. With one stream
 * holding lines (the usual case) its pages pass straight through.
 */
export async function* balanceTransactionBatches(
  documents: DocumentReader,
  owners: string[],
  filters: Omit<BalanceTransactionFilters, 'limit'>,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<LedgerLineDoc[]> {
  const before = cursorKey(filters.cursor);
  const heads: { pages: AsyncGenerator<LedgerLineDoc[]>; page: LedgerLineDoc[]; at: number }[] = [];
  for (const owner of owners)
    for (const books of LINE_BOOKS) {
      const pages = linePages(documents, books.lines, lineFilter(owner, filters), filters, before, pageSize);
      const first = await pages.next();
      if (!first.done) heads.push({ pages, page: first.value, at: 0 });
    }
  while (heads.length > 1) {
    const batch: LedgerLineDoc[] = [];
    while (batch.length < pageSize && heads.length > 1) {
      let newest = 0;
      for (let i = 1; i < heads.length; i++) if (heads[i]!.page[heads[i]!.at]!.key > heads[newest]!.page[heads[newest]!.at]!.key) newest = i;
      const head = heads[newest]!;
      batch.push(head.page[head.at]!);
      head.at += 1;
      if (head.at < head.page.length) continue;
      const next = await head.pages.next();
      if (next.done) heads.splice(newest, 1);
      else Object.assign(head, { page: next.value, at: 0 });
    }
    if (batch.length > 0) yield batch;
  }
  const last = heads[0];
  if (!last) return;
  yield last.page.slice(last.at);
  yield* last.pages;
}

/** One collection's lines of one owner matching the filters, older than `before`, newest first, in pages (never an empty one). */
async function* linePages(
  documents: DocumentReader,
  collection: string,
  filter: Filter,
  filters: Pick<BalanceTransactionFilters, 'from' | 'to'>,
  before: string | undefined,
  pageSize: number,
): AsyncGenerator<LedgerLineDoc[]> {
  for (let cursor = before; ;) {
    const page = await documents.find<LedgerLineDoc>(collection, { filter, range: lineRange(cursor, filters), sort: [{ field: 'key', direction: 'desc' }], limit: pageSize });
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    cursor = page[page.length - 1]!.key;
  }
}

/** A statement of one account in one currency over [from, to). */
export interface StatementView {
  account: string;
  accountType: string;
  currency: string;
  from: string;
  to: string;
  /** The account's balance at `from`: the balance after its last line before it (0 if none). */
  openingBalanceCents: string;
  /** The sum of the lines' amounts. */
  netChangeCents: string;
  /** The balance after the last line of the period (the opening balance if none): opening + net change, always. */
  closingBalanceCents: string;
  /** Per type: how many lines and their sum. */
  totals: { type: string; count: number; amountCents: string }[];
  lines: BalanceTransactionView[];
}

/**
 * The statement from the line before the period (null if none) and the period's lines in log order. The
 * closing balance is read from the last line, not added up, so `opening + net change = closing` is a check
 * on the running balances, which ledger:verify makes over random periods.
 */
export function composeStatement(account: string, currency: string, from: string, to: string, before: LedgerLineDoc | null, lines: LedgerLineDoc[]): StatementView {
  const opening = before ? BigInt(before.balanceAfterCents) : 0n;
  const last = lines[lines.length - 1];
  const totals = new Map<string, { count: number; amount: bigint }>();
  let net = 0n;
  for (const line of lines) {
    const amount = BigInt(line.amountCents);
    net += amount;
    const total = totals.get(line.type) ?? { count: 0, amount: 0n };
    totals.set(line.type, { count: total.count + 1, amount: total.amount + amount });
  }
  return {
    account,
    accountType: account.split(':')[0]!,
    currency,
    from,
    to,
    openingBalanceCents: opening.toString(),
    netChangeCents: net.toString(),
    closingBalanceCents: last ? last.balanceAfterCents : opening.toString(),
    totals: [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, t]) => ({ type, count: t.count, amountCents: t.amount.toString() })),
    lines: lines.map(viewOfLine),
  };
}

/** The owners' accounts and the currencies they hold, optionally narrowed to an account (kind or whole) and a currency. */
export async function accountsOf(
  documents: DocumentReader,
  owners: string[],
  account?: string,
  currency?: string,
): Promise<{ account: string; currency: string; lines: string }[]> {
  const found: { account: string; currency: string; lines: string }[] = [];
  for (const owner of owners) {
    const filter: Filter = { owner };
    if (currency) filter.currency = currency;
    if (account) {
      if (account.includes(':')) filter.account = account;
      else filter.accountType = account;
    }
    for (const books of LINE_BOOKS)
      for (const doc of await documents.find<AccountBalanceDoc>(books.balances, { filter })) found.push({ account: doc.account!, currency: doc.currency!, lines: books.lines });
  }
  return found.sort((a, b) => (a.account === b.account ? (a.currency < b.currency ? -1 : 1) : a.account < b.account ? -1 : 1));
}

/** Statements of the owners' accounts over [from, to), one per account and currency that has lines by then. */
export async function statements(documents: DocumentReader, owners: string[], query: { account?: string; currency?: string; from: string; to: string }): Promise<StatementView[]> {
  const result: StatementView[] = [];
  for (const { account, currency, lines: collection } of await accountsOf(documents, owners, query.account, query.currency)) {
    const [before] = await documents.find<LedgerLineDoc>(collection, {
      filter: { account, currency },
      range: { postedAt: { lt: query.from } },
      sort: [
        { field: 'postedAt', direction: 'desc' },
        { field: 'key', direction: 'desc' },
      ],
      limit: 1,
    });
    const lines = await documents.find<LedgerLineDoc>(collection, {
      filter: { account, currency },
      range: { postedAt: { gte: query.from, lt: query.to } },
      sort: [{ field: 'key', direction: 'asc' }],
    });
    if (!before && lines.length === 0) continue;
    result.push(composeStatement(account, currency, query.from, query.to, before ?? null, lines));
  }
  return result;
}

/** The company balance documents as they were after the last event at or before `asOf`, per currency. */
export async function companyBalancesAsOf(documents: DocumentReader, companyId: string, asOf: string): Promise<CompanyBalanceDoc[]> {
  const currencies = (await documents.find<CompanyBalanceDoc>(LEDGER_COMPANY_BALANCES, { filter: { companyId }, sort: [{ field: 'currency', direction: 'asc' }] })).map(
    (d) => d.currency,
  );
  const docs: CompanyBalanceDoc[] = [];
  for (const currency of currencies) {
    const [then] = await documents.find<CompanyBalanceHistoryDoc>(LEDGER_COMPANY_BALANCE_HISTORY, {
      filter: { companyId, currency },
      range: { postedAt: { lte: asOf } },
      sort: [
        { field: 'postedAt', direction: 'desc' },
        { field: 'position', direction: 'desc' },
      ],
      limit: 1,
    });
    if (!then) continue;
    docs.push({
      id: `${companyId}:${currency}`,
      companyId,
      currency,
      balanceCents: then.balanceCents,
      reservedCents: then.reservedCents,
      committedCents: then.committedCents,
      ...(then.marginHeldCents ? { marginHeldCents: then.marginHeldCents } : {}),
      ...(then.feeReservedCents ? { feeReservedCents: then.feeReservedCents } : {}),
    });
  }
  return docs;
}
