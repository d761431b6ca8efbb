import { renewalOrderId } from '../../src/checkout/application/checkout-payments';
import { SANDBOX_CARDS } from '../../src/checkout/infrastructure/sandbox-processors';
import { merchantBalanceDecider } from '../../src/checkout/domain/merchant-balance.decider';
import { MerchantBalanceEvent, merchantBalanceStreamId } from '../../src/checkout/domain/merchant-balance.events';
import { replayLedger } from '../../src/ledger';
import { fold } from '../../src/platform/domain/decider';
import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { expectLedgerVerifyClean } from '../support/ledger-verify-cli';
import { startTestApp, TestApp } from '../support/test-app';
import { jsonOf, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { advance, allEvents, CARDS, confirm, createdCheckout, createMerchant, form, Merchant, orderStatus } from '../browser/checkout-fixtures';

/**
 * Issue 26 items 1-2: refunds of PAID orders through the processor that took the payment, and checkout money
 * in the ledger (docs/checkout.md#refunds, docs/money.md#checkout-money). Every scenario ends with the
 * `ledger:verify` command (the built CLI, on the app's own data dir) reporting no violation. A merchant payout
 * that fails (the sandbox card SANDBOX_CARDS.PAYOUT_FAILS) is on the books and on the netting stream alike.
 */

const DAY = 86_400;

describe('Checkout refunds over HTTP (issue 26)', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const refund = (merchant: Merchant, orderId: string, body: Record<string, unknown>) =>
    app.request('POST', `/api/commerce/integration/checkout/orders/${orderId}/refunds`, { token: merchant.apiKey, body });
  const refundsOf = async (merchant: Merchant, orderId: string) =>
    dataOf(await app.request('GET', `/api/commerce/integration/checkout/orders/${orderId}/refunds`, { token: merchant.apiKey }), 200);
  const balance = async (merchant: Merchant, currency = 'USD') => {
    await app.eventCount(); // background work settled: payouts answered, the ledger projected
    const rows = dataOf(await app.request('GET', '/api/commerce/balance', { token: merchant.apiKey }), 200) as { currency: string }[];
    return rows.find((r) => r.currency === currency);
  };
  async function paidOrder(merchant: Merchant, amountMinorUnits: string, number: string = CARDS.ok, overrides: Record<string, unknown> = {}) {
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', amountMinorUnits, ...overrides });
    expect(dataOf(await confirm(app, order.orderId, order.clientSecret, number), 200)).toEqual({ status: 'PAID' });
    return order.orderId as string;
  }
  const payoutOf = async (orderId: string) => {
    await app.eventCount();
    const requested = (await allEvents(app)).find((e) => e.type === 'payout.requested' && (e.data as { orderId?: string }).orderId === orderId);
    return (requested?.data as { amountCents: string } | undefined)?.amountCents;
  };

  it('refunds part, then the rest, of a PAID order: PARTIALLY_REFUNDED then REFUNDED; a replay answers the same refund; checkout.refunded goes out', async () => {
    const merchant = await createMerchant(app, 'Refunding Shop');
    dataOf(
      await app.request('POST', '/api/commerce/webhooks/endpoints', { token: merchant.sessionToken, body: { url: `${receiver.url}/refunds`, eventTypes: ['checkout.refunded'] } }),
      201,
    );
    const orderId = await paidOrder(merchant, '1999');

    const first = await refund(merchant, orderId, { amountMinorUnits: '500', reason: 'One item returned', idempotencyKey: 'rf-1' });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      refundId: expect.stringMatching(/^rf_[0-9a-z]{26}$/),
      orderId,
      amountMinorUnits: '500',
      currency: 'USD',
      status: 'succeeded',
      reason: 'One item returned',
      failureCode: null,
      failureReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await orderStatus(app, orderId)).status).toBe('PARTIALLY_REFUNDED');

    // The same key and request: the same refund, nothing refunded twice. The same key with another request: 409.
    const replay = await refund(merchant, orderId, { amountMinorUnits: '500', reason: 'One item returned', idempotencyKey: 'rf-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.refundId).toBe(first.body.data.refundId);
    const reused = await refund(merchant, orderId, { amountMinorUnits: '600', idempotencyKey: 'rf-1' });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const rest = dataOf(await refund(merchant, orderId, { amountMinorUnits: '1499', idempotencyKey: 'rf-2' }), 201);
    expect(rest).toMatchObject({ status: 'succeeded', amountMinorUnits: '1499', reason: null });
    expect((await orderStatus(app, orderId)).status).toBe('REFUNDED');
    expect((await refundsOf(merchant, orderId)).map((r: { amountMinorUnits: string; status: string }) => [r.amountMinorUnits, r.status])).toEqual([
      ['500', 'succeeded'],
      ['1499', 'succeeded'],
    ]);
    // Nothing is left to refund.
    expect((await refund(merchant, orderId, { amountMinorUnits: '1', idempotencyKey: 'rf-3' })).status).toBe(422);

    await receiver.waitFor(
      () => receiver.requests.map(jsonOf).filter((b) => b.type === 'checkout.refunded' && b.data.orderId === orderId).length === 2,
      10_000,
      'checkout.refunded',
    );
    const delivered = receiver.requests.map(jsonOf).filter((b) => b.type === 'checkout.refunded' && b.data.orderId === orderId);
    expect(delivered.map((b) => b.data)).toEqual(
      expect.arrayContaining([
        { orderId, refundId: first.body.data.refundId, amount: '500', currency: 'USD', status: 'succeeded' },
        { orderId, refundId: rest.refundId, amount: '1499', currency: 'USD', status: 'succeeded' },
      ]),
    );
    // Paid out in full at once, then refunded in full: the merchant owes it back.
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '-1999', checkoutPayoutsInTransitCents: '0', checkoutPaidOutCents: '1999' });
    await expectLedgerVerifyClean(app);
  }, 60_000);

  it('refuses a refund over the captured amount (422) and writes nothing; refuses an unpaid order (422) and another merchant (404)', async () => {
    const merchant = await createMerchant(app, 'Careful Shop');
    const orderId = await paidOrder(merchant, '1000');
    const before = await app.eventCount();
    const over = await refund(merchant, orderId, { amountMinorUnits: '1001', idempotencyKey: 'too-much' });
    expect(over.status).toBe(422);
    expect(over.body).toEqual(errorEnvelope('CHECKOUT_REFUND_EXCEEDS_CAPTURED', [{ field: 'amountMinorUnits', message: 'at most 1000' }]));
    expect(await app.eventCount()).toBe(before);
    expect(await refundsOf(merchant, orderId)).toEqual([]);

    const open = await createdCheckout(app, merchant.apiKey);
    const unpaid = await refund(merchant, open.orderId, { amountMinorUnits: '1', idempotencyKey: 'unpaid' });
    expect(unpaid.status).toBe(422);
    expect(unpaid.body.error.code).toBe('CHECKOUT_ORDER_NOT_REFUNDABLE');

    const stranger = await createMerchant(app, 'Stranger');
    expect((await refund(stranger, orderId, { amountMinorUnits: '1', idempotencyKey: 'x' })).status).toBe(404);
    expect((await app.request('GET', `/api/commerce/integration/checkout/orders/${orderId}/refunds`, { token: stranger.apiKey })).status).toBe(404);
    expect((await refund(merchant, orderId, { amountMinorUnits: '0', idempotencyKey: 'zero' })).status).toBe(400);
    expect((await orderStatus(app, orderId)).status).toBe('PAID');
    await expectLedgerVerifyClean(app);
  }, 60_000);

  it('records a refund the processor refuses as failed: nothing moves, the order stays PAID and the amount stays refundable', async () => {
    const merchant = await createMerchant(app, 'Unlucky Shop');
    const orderId = await paidOrder(merchant, '2500', SANDBOX_CARDS.REFUNDS_FAIL);
    const failed = dataOf(await refund(merchant, orderId, { amountMinorUnits: '2500', idempotencyKey: 'fails' }), 201);
    expect(failed).toMatchObject({ status: 'failed', failureCode: 'refund_declined', failureReason: expect.any(String) });
    expect((await orderStatus(app, orderId)).status).toBe('PAID');
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '0', checkoutPaidOutCents: '2500' });
    // The failed amount can be asked again (and fails again at this processor).
    expect(dataOf(await refund(merchant, orderId, { amountMinorUnits: '2500', idempotencyKey: 'fails-again' }), 201)).toMatchObject({ status: 'failed' });
    const { postings } = await replayLedger(app.platform.events);
    expect(postings.filter((p) => p.kind === 'checkout_refund' && 'orderId' in p && p.orderId === orderId)).toEqual([]);
    await expectLedgerVerifyClean(app);
  }, 60_000);

  it('a refund after payout takes the checkout balance below zero; the next orders net it before anything is paid out', async () => {
    const merchant = await createMerchant(app, 'Paid-out Shop');
    const first = await paidOrder(merchant, '1000');
    expect(await payoutOf(first)).toBe('1000');
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '0', checkoutPaidOutCents: '1000' });

    dataOf(await refund(merchant, first, { amountMinorUnits: '700', idempotencyKey: 'after-payout' }), 201);
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '-700', checkoutPaidOutCents: '1000' });

    // 500 nets 500 of the 700 owed (a payout of 0, the order still completes); 300 nets the last 200 and pays out 100.
    const second = await paidOrder(merchant, '500');
    expect(await payoutOf(second)).toBe('0');
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '-200', checkoutPaidOutCents: '1000' });
    const third = await paidOrder(merchant, '300');
    expect(await payoutOf(third)).toBe('100');
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '0', checkoutPaidOutCents: '1100' });
    const fourth = await paidOrder(merchant, '400');
    expect(await payoutOf(fourth)).toBe('400');
    const completed = (await allEvents(app)).filter((e) => e.type === 'checkout.order.completed').map((e) => (e.data as { orderId: string }).orderId);
    expect(completed).toEqual(expect.arrayContaining([first, second, third, fourth]));
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '0', checkoutPaidOutCents: '1500' });
    await expectLedgerVerifyClean(app);
  }, 60_000);

  it('a merchant payout that fails leaves its money in the checkout balance, on the books and on the netting stream: later refunds draw on it, no order nets it', async () => {
    const merchant = await createMerchant(app, 'Unpaid Shop');
    /** What the netting stream says the merchant owes (negative: holds), in USD. */
    const owed = async () => {
      const events = await app.platform.events.readStream(merchantBalanceStreamId(merchant.companyId));
      return (
        fold(
          merchantBalanceDecider,
          events.map((e) => ({ type: e.type, data: e.data }) as MerchantBalanceEvent),
        ).debt.USD ?? 0n
      );
    };
    // The sandbox card whose orders' merchant payouts the rail refuses (docs/checkout.md#sandbox-cards).
    const unpaid = await paidOrder(merchant, '10000', SANDBOX_CARDS.PAYOUT_FAILS);
    expect(await payoutOf(unpaid)).toBe('10000');
    const failed = (await allEvents(app)).filter((e) => e.type === 'payout.failed' && (e.data as { orderId?: string }).orderId === unpaid);
    expect(failed).toHaveLength(1);
    expect((await orderStatus(app, unpaid)).status).toBe('PAID');
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '10000', checkoutPayoutsInTransitCents: '0', checkoutPaidOutCents: '0' });
    expect(await owed()).toBe(-10000n);

    // A refund of money already paid out draws on what the failed payout left: no debt, so the next order is paid out whole.
    const paid = await paidOrder(merchant, '1000');
    expect(await payoutOf(paid)).toBe('1000');
    dataOf(await refund(merchant, paid, { amountMinorUnits: '700', idempotencyKey: 'after-failed-payout' }), 201);
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '9300', checkoutPaidOutCents: '1000' });
    const next = await paidOrder(merchant, '400');
    expect(await payoutOf(next)).toBe('400');
    // The unpaid order's own refund comes out of its held money.
    dataOf(await refund(merchant, unpaid, { amountMinorUnits: '2500', idempotencyKey: 'unpaid-order' }), 201);
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '6800', checkoutPayoutsInTransitCents: '0', checkoutPaidOutCents: '1400' });
    // The netting stream and the ledger agree to the cent.
    expect(await owed()).toBe(-6800n);
    await expectLedgerVerifyClean(app);
  }, 60_000);

  it('refunds a subscription renewal; the subscription stays ACTIVE and renews again', async () => {
    const merchant = await createMerchant(app, 'Subscription Shop');
    const founding = await paidOrder(merchant, '990', CARDS.ok, { subscriptionIntervalUnit: 'MONTHLY' });
    const { subscriptionId } = await orderStatus(app, founding);
    await advance(app, 31 * DAY);
    const renewal = renewalOrderId({ subscriptionId, periodIndex: 1, attempt: 1 });
    expect((await orderStatus(app, renewal)).status).toBe('PAID');

    expect(dataOf(await refund(merchant, renewal, { amountMinorUnits: '990', reason: 'Forgot to cancel', idempotencyKey: 'renewal' }), 201)).toMatchObject({ status: 'succeeded' });
    expect((await orderStatus(app, renewal)).status).toBe('REFUNDED');
    const subscription = dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
    expect(subscription).toMatchObject({ status: 'ACTIVE', cancelledAt: null });

    await advance(app, 31 * DAY);
    const next = renewalOrderId({ subscriptionId, periodIndex: 2, attempt: 1 });
    expect((await orderStatus(app, next)).status).toBe('PAID');
    // The next renewal's money nets the refund first.
    expect(await payoutOf(next)).toBe('0');
    expect(await balance(merchant)).toMatchObject({ checkoutBalanceCents: '0', checkoutPaidOutCents: '1980' });
    await expectLedgerVerifyClean(app);
  }, 60_000);

  it("keeps the buyer's receipt after a refund and shows what went back (the pay page shows the receipt, never the card form again)", async () => {
    const merchant = await createMerchant(app, 'Receipt Shop');
    const order = await createdCheckout(app, merchant.apiKey, { amountMinorUnits: '4250' });
    const token = new URL(order.redirectUrl).searchParams.get('t')!;
    expect((await form(app, `/pay/${order.orderId}`, { t: token, number: CARDS.ok, expMonth: '12', expYear: '2040', cvc: '123' })).status).toBe(303);
    dataOf(await refund(merchant, order.orderId, { amountMinorUnits: '1025', idempotencyKey: 'receipt' }), 201);
    const receipt = await fetch(`${app.url}/pay/${order.orderId}/receipt?t=${encodeURIComponent(token)}`, { redirect: 'manual' });
    expect(receipt.status).toBe(200);
    const html = await receipt.text();
    expect(html).toContain('<dt>Status</dt><dd>Partially refunded</dd>');
    expect(html).toContain('<dt>Refunded</dt><dd>$10.25</dd>');
    const pay = await (await fetch(`${app.url}/pay/${order.orderId}?t=${encodeURIComponent(token)}`, { redirect: 'manual' })).text();
    expect(pay).toContain('Payment received');
    expect(pay).not.toContain('name="number"');
    await expectLedgerVerifyClean(app);
  }, 60_000);
});
