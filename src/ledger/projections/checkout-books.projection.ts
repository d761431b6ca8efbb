import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { CollectionSpec, Doc, Filter, FindOptions } from '../../platform/read-store/document-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { CheckoutLedgerProjection, LEDGER_CHECKOUT_BALANCES, LEDGER_CHECKOUT_POSTINGS } from './checkout-ledger.projection';
import { AccountBalanceDoc, BookingWriter, LEDGER_ACCOUNT_BALANCES, LEDGER_LINES, LedgerLineDoc, LINE_COLLECTION_INDEXES } from './ledger-lines';

/** The checkout postings' ledger lines (same shape and ids as ledger_lines), for balance transactions, statements and exports. */
export const LEDGER_CHECKOUT_LINES = 'ledger_checkout_lines';
/** Per (currency, account) of the checkout accounts: the running balance the next line starts from. */
export const LEDGER_CHECKOUT_LINE_BALANCES = 'ledger_checkout_line_balances';

/**
 * Checkout lines are numbered from here within their event (`bt_<position>_9001`...), so that they never
 * share an id or a cursor key with a line the ledger projection books for the same event.
 */
export const CHECKOUT_LINE_OFFSET = 9000;

/**
 * processor_clearing:<co> is the platform's account with the card processor, kept per merchant: its lines
 * are the platform's (owner `platform`), not shown among the merchant's balance transactions. The merchant's
 * are merchant_balance, merchant_payout_in_transit and merchant_paid_out.
 */
const PLATFORM_ACCOUNT_TYPES = new Set(['processor_clearing']);

/** What the checkout ledger keeps that the books do not need again (the postings become lines; the balance documents are ledger_checkout's). */
const NOT_KEPT = new Set([LEDGER_CHECKOUT_POSTINGS, LEDGER_CHECKOUT_BALANCES]);
const renamed = (collection: string) =>
  collection === LEDGER_LINES ? LEDGER_CHECKOUT_LINES : collection === LEDGER_ACCOUNT_BALANCES ? LEDGER_CHECKOUT_LINE_BALANCES : `books_${collection}`;

/**
 * The checkout ledger's postings booked as ledger lines (issue 28): capture, merchant payout, paid, failed,
 * refund and whatever else the checkout ledger posts, each entry one line with the account's running
 * balance, `type`, `source` (the ord_ id) , `postingId` and `eventId`.
 *
 * A projection of its own, new in this version, so it starts from the beginning of the log by itself: a
 * data dir written by an earlier version books its old orders without a manual rebuild. It runs the
 * checkout ledger's own rules (CheckoutLedgerProjection) on collections of its own (renamed), so the two
 * never disagree on what a checkout posting is.
 */
@Injectable()
@LogSubscriber()
export class CheckoutBooksProjection implements Projection {
  readonly name = 'ledger_checkout_books';
  private readonly postings = new CheckoutLedgerProjection();
  readonly streams = this.postings.streams;
  readonly collections: CollectionSpec[] = [
    { name: LEDGER_CHECKOUT_LINES, ...LINE_COLLECTION_INDEXES },
    { name: LEDGER_CHECKOUT_LINE_BALANCES, indexes: [['owner']] },
    ...this.postings.collections.filter((c) => !NOT_KEPT.has(c.name)).map((c) => ({ ...c, name: renamed(c.name) })),
  ];

  handles(event: RecordedEvent): boolean {
    return this.postings.handles(event);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const booking = new BookingWriter(new CheckoutBooksWriter(writer), LEDGER_CHECKOUT_POSTINGS, CHECKOUT_LINE_OFFSET);
    await this.postings.apply(recorded, booking);
    await booking.book(recorded, async () => null);
  }
}

/** Maps the checkout ledger's and the booking's collections onto this projection's own; drops what it does not keep. */
class CheckoutBooksWriter implements ProjectionWriter {
  constructor(private readonly writer: ProjectionWriter) {}

  put<T extends Doc>(collection: string, doc: T): void {
    if (NOT_KEPT.has(collection)) return;
    if (collection === LEDGER_LINES || collection === LEDGER_ACCOUNT_BALANCES) {
      const line = doc as unknown as LedgerLineDoc | AccountBalanceDoc;
      // A copy: the booking's lines are frozen (ledger-lines.ts).
      if (line.accountType && PLATFORM_ACCOUNT_TYPES.has(line.accountType)) return this.writer.put(renamed(collection), { ...doc, owner: 'platform' });
    }
    this.writer.put(renamed(collection), doc);
  }
  delete(collection: string, id: string): void {
    if (!NOT_KEPT.has(collection)) this.writer.delete(renamed(collection), id);
  }
  async edit<T extends Doc>(collection: string, id: string): Promise<T | null> {
    return NOT_KEPT.has(collection) ? null : this.writer.edit<T>(renamed(collection), id);
  }
  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    return NOT_KEPT.has(collection) ? null : this.writer.get<T>(renamed(collection), id);
  }
  async find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]> {
    return NOT_KEPT.has(collection) ? [] : this.writer.find<T>(renamed(collection), options);
  }
  async count(collection: string, filter?: Filter): Promise<number> {
    return NOT_KEPT.has(collection) ? 0 : this.writer.count(renamed(collection), filter);
  }
}
