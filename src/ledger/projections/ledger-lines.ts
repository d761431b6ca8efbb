import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { CollectionSpec, Doc, FindOptions, Filter } from '../../platform/read-store/document-store.port';
import { ProjectionWriter } from '../../platform/projections/projection';
import { Posting } from '../domain/posting';

/**
 * The books (issue 28): one document per ledger line (a posting's entry) with the account's balance after
 * it, written beside every posting of the ledger projection whatever its kind, so a new posting kind or a
 * new account shows in balance transactions, statements and exports without a change here.
 */
export const LEDGER_LINES = 'ledger_lines';
/** Per (currency, account): the running balance the next line starts from. */
export const LEDGER_ACCOUNT_BALANCES = 'ledger_account_balances';
/** Per company, currency and event that changed it: the company balance document as it was after it (for `?asOf=`). */
export const LEDGER_COMPANY_BALANCE_HISTORY = 'ledger_company_balance_history';

/**
 * How line collections (the ledger's and the checkout books') are indexed. `key` is unique (it names the
 * line's position and index, as its id does): lists sorted by it need no tiebreak.
 */
export const LINE_COLLECTION_INDEXES: Pick<CollectionSpec, 'indexes' | 'unique'> = {
  indexes: [
    ['owner', 'key'],
    ['account', 'currency', 'key'],
    ['account', 'currency', 'postedAt'],
  ],
  unique: ['key'],
};

export const LEDGER_LINE_COLLECTIONS: CollectionSpec[] = [
  { name: LEDGER_LINES, ...LINE_COLLECTION_INDEXES },
  { name: LEDGER_ACCOUNT_BALANCES, indexes: [['owner']] },
  { name: LEDGER_COMPANY_BALANCE_HISTORY, indexes: [['companyId', 'currency', 'postedAt']] },
];

/** One ledger line: a posting's entry on one account, signed from the account holder's side. */
export interface LedgerLineDoc {
  /** `bt_<position>_<line>`: the line's public id, also the cursor that pages after it. */
  id: string;
  /** Position (16 digits) and line index within the event (4 digits): strictly increasing in log order. */
  key: string;
  /** The full account, e.g. `company_balance:co_...`. */
  account: string;
  /** The account's kind: the part before the first `:` (`company_balance`, `payout_reserve`, ...). */
  accountType: string;
  /** Whose account it is: the part after the first `:` (a company, a contractor profile, a person, an email); `platform` for the platform's own. */
  owner: string;
  currency: string;
  /** Credit less debit: what the line added to the holder's money with us (a receivable's debit is negative). */
  amountCents: string;
  /** The account's balance (credit-positive) once this line is applied. */
  balanceAfterCents: string;
  /** The posting's kind (funding, row_transfer, top_up, ...). */
  type: string;
  /** The spl_, dst_, ord_, pes_, inv_ or po_ id the posting belongs to (else its own id). */
  source: string;
  postingId: string;
  eventId: string;
  position: number;
  postedAt: string;
  memo: string;
}

export interface CompanyBalanceHistoryDoc {
  id: string;
  companyId: string;
  currency: string;
  position: number;
  postedAt: string;
  /** The company balance document's figures after the event (see CompanyBalanceDoc). */
  balanceCents: string;
  reservedCents: string;
  committedCents: string;
  marginHeldCents?: string;
  feeReservedCents?: string;
}

export interface AccountBalanceDoc {
  id: string;
  balanceCents: string;
  /** Whose account, the account and the currency (what statements list). */
  owner?: string;
  account?: string;
  accountType?: string;
  currency?: string;
}

const POSITION_DIGITS = 16;
const LINE_DIGITS = 4;

export const lineKey = (position: number, line: number) => `${String(position).padStart(POSITION_DIGITS, '0')}:${String(line).padStart(LINE_DIGITS, '0')}`;
export const lineId = (position: number, line: number) => `bt_${position}_${line}`;

/** The key of a line id given as a cursor, or null when it is not one. */
export function keyOfLineId(id: string): string | null {
  const match = /^bt_(\d{1,16})_(\d{1,4})$/.exec(id);
  return match ? lineKey(Number(match[1]), Number(match[2])) : null;
}

/** The account's kind and owner: `company_balance:co_1` -> [`company_balance`, `co_1`], `platform_fees` -> [`platform_fees`, `platform`]. */
export function splitAccount(account: string): [string, string] {
  const at = account.indexOf(':');
  return at < 0 ? [account, 'platform'] : [account.slice(0, at), account.slice(at + 1)];
}

/** Id prefixes a posting may belong to, most specific first. */
const SOURCE_PREFIXES = ['dst_', 'pes_', 'ord_', 'rf_', 'inv_', 'po_', 'spl_', 'top_'];
const NOT_SOURCES = new Set(['id', 'eventId', 'memo', 'kind', 'currency', 'postedAt', 'companyId']);

/**
 * What a posting belongs to: its `source` when it names one, else its most specific id-like field (a
 * session's pes_, a withdrawal's po_, a Split's spl_, a top-up named in its memo...), else its own id.
 */
export function sourceOf(posting: Posting): string {
  const fields = posting as unknown as Record<string, unknown>;
  if (typeof fields.source === 'string') return fields.source;
  const candidates = Object.entries(fields)
    .filter(([field, value]) => !NOT_SOURCES.has(field) && typeof value === 'string')
    .map(([, value]) => value as string);
  const inMemo = posting.memo.match(/\b(?:top|inv|ord|rf|dst|pes|po)_[0-9a-z]+\b/g) ?? [];
  const rank = (id: string) => SOURCE_PREFIXES.findIndex((prefix) => id.startsWith(prefix));
  const best = [...candidates, ...inMemo.filter((id) => id.startsWith('top_'))].filter((id) => rank(id) >= 0).sort((a, b) => rank(a) - rank(b))[0];
  return best ?? posting.id;
}

/**
 * A posting as it is put: nothing changes a posting once it is put (its lines are booked from it), so it
 * is frozen, entries and all, and the staged writer keeps it as it is instead of copying it
 * (document-snapshot.ts). The lines and balance snapshots below are frozen as they are made, for the same
 * reason: copying the ledger's ~1M documents per rebuild was a few seconds of its CPU and of its GC.
 */
function frozenPosting(posting: Posting): Posting {
  for (const entry of posting.entries) Object.freeze(entry);
  Object.freeze(posting.entries);
  return Object.freeze(posting);
}

/**
 * Wraps the ledger projection's writer: notes every posting it puts, then books their lines in the order
 * they were put, with each account's running balance, and snapshots the company balance documents the
 * event touched. Idempotent by construction: line ids derive from the event's position, and the
 * projection applies each event once (duplicates skipped by stream revision); a rebuild makes the same.
 */
export class BookingWriter implements ProjectionWriter {
  private readonly postings: Posting[] = [];

  constructor(
    private readonly writer: ProjectionWriter,
    private readonly postingsCollection: string,
    /** Where the event's line numbers start (the checkout books number theirs apart: checkout-books.projection.ts). */
    private readonly lineOffset = 0,
  ) {}

  put<T extends Doc>(collection: string, doc: T): void {
    if (collection === this.postingsCollection) {
      const posting = frozenPosting(doc as unknown as Posting);
      this.postings.push(posting);
      this.writer.put(collection, posting as unknown as T);
      return;
    }
    this.writer.put(collection, doc);
  }
  delete(collection: string, id: string): void {
    this.writer.delete(collection, id);
  }
  edit<T extends Doc>(collection: string, id: string): Promise<T | null> {
    return this.writer.edit<T>(collection, id);
  }
  get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    return this.writer.get<T>(collection, id);
  }
  find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]> {
    return this.writer.find<T>(collection, options);
  }
  count(collection: string, filter?: Filter): Promise<number> {
    return this.writer.count(collection, filter);
  }

  /** Books the lines of the postings put while applying `recorded`; `companyBalance` reads a company's balance document (if it has one). */
  async book(
    recorded: RecordedEvent,
    companyBalance: (companyId: string, currency: string) => Promise<Omit<CompanyBalanceHistoryDoc, 'id' | 'companyId' | 'currency' | 'position' | 'postedAt'> | null>,
  ): Promise<void> {
    let line = this.lineOffset;
    const owners = new Set<string>();
    for (const posting of this.postings) {
      const source = sourceOf(posting);
      for (const entry of posting.entries) {
        const amount = BigInt(entry.credit) - BigInt(entry.debit);
        const balanceId = `${posting.currency}:${entry.account}`;
        const [accountType, owner] = splitAccount(entry.account);
        const stored = await this.writer.edit<AccountBalanceDoc>(LEDGER_ACCOUNT_BALANCES, balanceId);
        const balance = stored ?? { id: balanceId, balanceCents: '0', owner, account: entry.account, accountType, currency: posting.currency };
        balance.balanceCents = (BigInt(balance.balanceCents) + amount).toString();
        if (!stored) this.writer.put<AccountBalanceDoc>(LEDGER_ACCOUNT_BALANCES, balance);
        owners.add(`${owner}\u0000${posting.currency}`);
        line += 1;
        this.writer.put<LedgerLineDoc>(
          LEDGER_LINES,
          Object.freeze({
            id: lineId(recorded.position, line),
            key: lineKey(recorded.position, line),
            account: entry.account,
            accountType,
            owner,
            currency: posting.currency,
            amountCents: amount.toString(),
            balanceAfterCents: balance.balanceCents,
            type: posting.kind,
            source,
            postingId: posting.id,
            eventId: posting.eventId,
            position: recorded.position,
            postedAt: posting.postedAt,
            memo: posting.memo,
          }),
        );
      }
    }
    for (const pair of owners) {
      const [companyId, currency] = pair.split('\u0000') as [string, string];
      const figures = await companyBalance(companyId, currency);
      if (!figures) continue;
      this.writer.put<CompanyBalanceHistoryDoc>(
        LEDGER_COMPANY_BALANCE_HISTORY,
        Object.freeze({
          ...figures,
          id: `${companyId}:${currency}:${lineKey(recorded.position, 0)}`,
          companyId,
          currency,
          position: recorded.position,
          postedAt: recorded.metadata.occurredAt,
        }),
      );
    }
  }
}
