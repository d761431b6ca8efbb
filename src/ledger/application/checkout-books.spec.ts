import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { COLLECTIONS_MERCHANT } from '../../collection';
import { CheckoutPosting } from '../domain/posting';
import { CheckoutLedgerProjection, LEDGER_CHECKOUT_POSTINGS } from '../projections/checkout-ledger.projection';
import { CheckoutBooksProjection, LEDGER_CHECKOUT_LINE_BALANCES, LEDGER_CHECKOUT_LINES } from '../projections/checkout-books.projection';
import { AccountBalanceDoc, LedgerLineDoc } from '../projections/ledger-lines';
import { verifyStatements } from './statement-verifier';

const NOTHING: DocumentReader = { get: async () => null, find: async () => [], count: async () => 0 };
let position = 0;
const ev = (type: string, streamId: string, data: Record<string, unknown>): RecordedEvent =>
  ({
    id: `evt-${position + 1}`,
    type,
    data,
    streamId,
    revision: 0,
    position: ++position,
    metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: `2026-03-01T12:00:${String(position).padStart(2, '0')}.000Z` },
  }) as RecordedEvent;
const orderPaid = (orderId: string, amount: string, merchantCompanyId = 'co_m') =>
  ev('checkout.order.paid', `checkout_order-${orderId}`, { orderId, merchantCompanyId, amountMinorUnits: amount, currency: 'USD', payoutId: `po_${orderId}` });
const payout = (type: string, orderId: string, amountCents?: string) =>
  ev(type, `payout-po_${orderId}`, {
    payoutId: `po_${orderId}`,
    kind: 'merchant',
    orderId,
    ...(amountCents ? { amountCents, currency: 'USD', destination: 'co_m', attempt: 1 } : {}),
  });

/** The checkout ledger's postings and the books' lines of the same events, as the two projections store them. */
async function booked(events: RecordedEvent[]) {
  const [ledger, books] = [new CheckoutLedgerProjection(), new CheckoutBooksProjection()];
  const writer = new StagedWriter(NOTHING);
  for (const event of events) for (const projection of [ledger, books]) if (projection.handles(event)) await projection.apply(event, writer);
  const puts = writer.writes().flatMap((w) => (w.kind === 'put' ? [w] : []));
  return {
    postings: puts.filter((w) => w.collection === LEDGER_CHECKOUT_POSTINGS).map((w) => w.doc as CheckoutPosting),
    lines: puts.filter((w) => w.collection === LEDGER_CHECKOUT_LINES).map((w) => w.doc as LedgerLineDoc),
    balances: puts.filter((w) => w.collection === LEDGER_CHECKOUT_LINE_BALANCES).map((w) => w.doc as AccountBalanceDoc),
    collections: new Set(puts.map((w) => w.collection)),
  };
}

/** Issue 28: the checkout ledger's postings booked as ledger lines (docs/money.md#checkout-money). */
describe('ledger: checkout postings in the books', () => {
  beforeEach(() => (position = 0));

  it('books a capture, a payout and its failure as lines with running balances; processor_clearing is the platform’s', async () => {
    const { postings, lines, balances, collections } = await booked([orderPaid('ord_a', '1000'), payout('payout.requested', 'ord_a', '1000'), payout('payout.failed', 'ord_a')]);
    expect(lines.map((l) => [l.id, l.owner, l.account, l.type, l.amountCents, l.balanceAfterCents, l.source, l.postingId, l.eventId])).toEqual([
      ['bt_1_9001', 'platform', 'processor_clearing:co_m', 'checkout_capture', '-1000', '-1000', 'ord_a', 'ord_a:0001', 'evt-1'],
      ['bt_1_9002', 'co_m', 'merchant_balance:co_m', 'checkout_capture', '1000', '1000', 'ord_a', 'ord_a:0001', 'evt-1'],
      ['bt_2_9001', 'co_m', 'merchant_balance:co_m', 'checkout_payout', '-1000', '0', 'ord_a', 'ord_a:0002', 'evt-2'],
      ['bt_2_9002', 'co_m', 'merchant_payout_in_transit:co_m', 'checkout_payout', '1000', '1000', 'ord_a', 'ord_a:0002', 'evt-2'],
      ['bt_3_9001', 'co_m', 'merchant_payout_in_transit:co_m', 'checkout_payout_failed', '-1000', '0', 'ord_a', 'ord_a:0003', 'evt-3'],
      ['bt_3_9002', 'co_m', 'merchant_balance:co_m', 'checkout_payout_failed', '1000', '1000', 'ord_a', 'ord_a:0003', 'evt-3'],
    ]);
    expect(balances.find((b) => b.account === 'processor_clearing:co_m')).toMatchObject({ owner: 'platform' });
    // The same entries the checkout ledger posts, each booked once: the books check of ledger:verify.
    expect(verifyStatements(lines, postings).violations).toEqual([]);
    // The books keep no second copy of the postings or of the merchant balance documents.
    expect([...collections].filter((c) => c.startsWith('books_'))).toEqual(['books_ledger_checkout_orders']);
  });

  it('books nothing for an invoice paid by card (the collection posting books that money)', async () => {
    const { lines } = await booked([orderPaid('ord_inv', '5000', COLLECTIONS_MERCHANT), payout('payout.requested', 'ord_inv', '5000'), payout('payout.completed', 'ord_inv')]);
    expect(lines).toEqual([]);
  });

  it('ledger:verify finds a checkout posting with no line, and a line id booked twice', async () => {
    const { postings, lines } = await booked([orderPaid('ord_a', '1000')]);
    expect(verifyStatements(lines.slice(1), postings).violations.map((v) => v.rule)).toContain('ledger_lines');
    expect(verifyStatements([...lines, lines[0]!], postings).violations.map((v) => v.message)).toContain('bt_1_9001 is booked twice');
  });
});
