import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { CheckoutPosting, Posting } from '../domain/posting';
import { CheckoutBalanceDoc, CheckoutLedgerProjection, LEDGER_CHECKOUT_BALANCES, LEDGER_CHECKOUT_POSTINGS } from '../projections/checkout-ledger.projection';
import { verifyLedger } from './ledger-verifier';

const NOTHING: DocumentReader = { get: async () => null, find: async () => [], count: async () => 0 };
let position = 0;
const ev = (type: string, streamId: string, data: Record<string, unknown>): RecordedEvent =>
  ({
    id: `evt-${position}`,
    type,
    data,
    streamId,
    revision: 0,
    position: ++position,
    metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-03-01T12:00:00.000Z' },
  }) as RecordedEvent;
const orderPaid = (orderId: string, amount: string) =>
  ev('checkout.order.paid', `checkout_order-${orderId}`, { orderId, merchantCompanyId: 'co_m', amountMinorUnits: amount, currency: 'USD', payoutId: `po_${orderId}` });
const payout = (type: string, orderId: string, amountCents?: string) =>
  ev(type, `payout-po_${orderId}`, {
    payoutId: `po_${orderId}`,
    kind: 'merchant',
    orderId,
    ...(amountCents ? { amountCents, currency: 'USD', destination: 'co_m', attempt: 1 } : {}),
  });
const refunded = (orderId: string, refundId: string, amount: string) =>
  ev('checkout.order.refund_succeeded', `checkout_order-${orderId}`, { orderId, merchantCompanyId: 'co_m', refundId, amountMinorUnits: amount, currency: 'USD' });

async function booksOf(events: RecordedEvent[]) {
  const projection = new CheckoutLedgerProjection();
  const writer = new StagedWriter(NOTHING);
  for (const event of events) if (projection.handles(event)) await projection.apply(event, writer);
  const puts = writer.writes().flatMap((w) => (w.kind === 'put' ? [w] : []));
  return {
    postings: puts.filter((w) => w.collection === LEDGER_CHECKOUT_POSTINGS).map((w) => w.doc as CheckoutPosting),
    balance: puts.filter((w) => w.collection === LEDGER_CHECKOUT_BALANCES).map((w) => w.doc as CheckoutBalanceDoc)[0],
  };
}

/** Issue 26 (docs/money.md#checkout-money): the worked example of docs/money.md, posted from events, and the rules ledger:verify holds it to. */
describe('ledger: checkout money', () => {
  beforeEach(() => (position = 0));
  const worked = () => [
    orderPaid('ord_a', '10000'),
    payout('payout.requested', 'ord_a', '10000'),
    payout('payout.completed', 'ord_a'),
    refunded('ord_a', 'rf_1', '2500'),
    orderPaid('ord_b', '1500'),
    payout('payout.requested', 'ord_b', '0'),
    payout('payout.completed', 'ord_b'),
    orderPaid('ord_c', '4000'),
    payout('payout.requested', 'ord_c', '3000'),
    payout('payout.completed', 'ord_c'),
  ];

  it('posts captures, payouts (netted) and refunds; the merchant balance goes below zero and comes back to it', async () => {
    const { postings, balance } = await booksOf(worked());
    expect(postings.map((p) => [p.id, p.kind, p.entries.map((e) => `${e.account} ${e.debit}/${e.credit}`)])).toEqual([
      ['ord_a:0001', 'checkout_capture', ['processor_clearing:co_m 10000/0', 'merchant_balance:co_m 0/10000']],
      ['ord_a:0002', 'checkout_payout', ['merchant_balance:co_m 10000/0', 'merchant_payout_in_transit:co_m 0/10000']],
      ['ord_a:0003', 'checkout_payout_paid', ['merchant_payout_in_transit:co_m 10000/0', 'merchant_paid_out:co_m 0/10000']],
      ['ord_a:0004', 'checkout_refund', ['merchant_balance:co_m 2500/0', 'processor_clearing:co_m 0/2500']],
      ['ord_b:0001', 'checkout_capture', ['processor_clearing:co_m 1500/0', 'merchant_balance:co_m 0/1500']],
      ['ord_c:0001', 'checkout_capture', ['processor_clearing:co_m 4000/0', 'merchant_balance:co_m 0/4000']],
      ['ord_c:0002', 'checkout_payout', ['merchant_balance:co_m 3000/0', 'merchant_payout_in_transit:co_m 0/3000']],
      ['ord_c:0003', 'checkout_payout_paid', ['merchant_payout_in_transit:co_m 3000/0', 'merchant_paid_out:co_m 0/3000']],
    ]);
    expect(balance).toMatchObject({ balanceCents: '0', inTransitCents: '0', paidOutCents: '13000', capturedNetCents: '13000' });
    const report = verifyLedger(postings, []);
    expect(report.violations).toEqual([]);
    expect(report).toMatchObject({ checkoutOrders: 3, checkoutRefunds: 1 });
  });

  it('finds a refund over the capture, a second capture, and a posting that leaves the books of its order', async () => {
    const { postings } = await booksOf([orderPaid('ord_a', '1000'), refunded('ord_a', 'rf_1', '600'), refunded('ord_a', 'rf_2', '600')]);
    expect(verifyLedger(postings, []).violations.map((v) => v.message)).toEqual([expect.stringContaining('ord_a: refunded 1200 of a 1000 capture')]);
    const twice = await booksOf([orderPaid('ord_a', '1000'), orderPaid('ord_a', '1000')]);
    expect(verifyLedger(twice.postings, []).violations.map((v) => v.message)).toEqual(['ord_a: captured 2 times']);
    const leak: Posting = {
      ...twice.postings[0]!,
      id: 'ord_a:0009',
      kind: 'checkout_refund',
      entries: [
        { account: 'merchant_balance:co_m', debit: '10', credit: '0' },
        { account: 'platform_fees', debit: '0', credit: '10' },
      ],
    };
    expect(verifyLedger([twice.postings[0]!, leak], []).violations.map((v) => v.message)).toEqual([expect.stringContaining('ord_a: captured 1000, but refunded 0')]);
  });

  it('finds a payout that held back more than refunds took back', async () => {
    const { postings } = await booksOf([orderPaid('ord_a', '1000'), payout('payout.requested', 'ord_a', '400'), payout('payout.completed', 'ord_a')]);
    expect(verifyLedger(postings, []).violations).toEqual([{ rule: 'checkout_netting', message: 'co_m:USD: payouts held back 600, more than the 0 refunds took back' }]);
  });
});
