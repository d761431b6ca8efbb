import { ORDER_STATUSES } from '../../src/checkout/domain/checkout.events';
import { advance, CARDS, confirm, createdCheckout, createMerchant, Merchant } from '../browser/checkout-fixtures';
import { dataOf } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The order list's `total` comes from the counts the checkout projection keeps per merchant (no COUNT over
 * the merchant's orders): it must equal what the list holds, for the default list (unlisted orders left
 * out) and for each status, through creates, payments, refunds and expiries.
 */
describe("the merchant's order list totals, kept as counts (issue 31)", () => {
  let app: TestApp;
  let merchant: Merchant;
  let other: Merchant;
  beforeAll(async () => {
    app = await startTestApp();
    [merchant, other] = await Promise.all([createMerchant(app, 'Counted Shop'), createMerchant(app, 'Other Counted Shop')]);
  });
  afterAll(async () => {
    await app.close();
  });

  const list = async (query: string) => {
    const response = await app.request('GET', `/api/commerce/checkout/orders?limit=100${query}`, { token: merchant.sessionToken });
    return { ids: (dataOf(response, 200) as { id: string }[]).map((order) => order.id), total: response.body.meta.total as number };
  };
  async function paidOrder(amountMinorUnits: string) {
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', amountMinorUnits });
    dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
    return order.orderId as string;
  }
  const refund = async (orderId: string, amountMinorUnits: string) =>
    dataOf(
      await app.request('POST', `/api/commerce/integration/checkout/orders/${orderId}/refunds`, {
        token: merchant.apiKey,
        body: { amountMinorUnits, reason: 'Returned', idempotencyKey: `rf-${orderId}-${amountMinorUnits}` },
      }),
      201,
    );
  async function expectTotals(expected: { listed: number } & Partial<Record<(typeof ORDER_STATUSES)[number], number>>) {
    await app.eventCount();
    const all = await list('');
    expect({ listed: all.total, shown: all.ids.length }).toEqual({ listed: expected.listed, shown: expected.listed });
    for (const status of ORDER_STATUSES) {
      const narrowed = await list(`&status=${status}`);
      expect({ status, total: narrowed.total, shown: narrowed.ids.length }).toEqual({ status, total: expected[status] ?? 0, shown: expected[status] ?? 0 });
    }
  }

  it('counts each order once in its status, moves it with its status, and leaves out of the default list what it does not show', async () => {
    await expectTotals({ listed: 0 });
    const slug = dataOf(
      await app.request('POST', '/api/commerce/payment-links', {
        token: merchant.sessionToken,
        body: { title: 'Counted link', amountMinorUnits: '2500', currency: 'USD', provider: 'CARD_PROCESSOR' },
      }),
      201,
    ).slug as string;
    const started = await fetch(`${app.url}/checkout/${slug}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: '',
    });
    expect(started.status).toBe(303);
    await createdCheckout(app, merchant.apiKey);
    await createdCheckout(app, other.apiKey);
    const partly = await paidOrder('2000');
    const fully = await paidOrder('1500');
    await expectTotals({ listed: 4, OPEN: 2, PAID: 2 });

    await refund(partly, '500');
    await refund(fully, '1500');
    await expectTotals({ listed: 4, OPEN: 2, PARTIALLY_REFUNDED: 1, REFUNDED: 1 });

    // A day on, both open orders expire: the API order stays in the default list, the abandoned link order leaves it.
    await advance(app, 24 * 3600 + 1);
    await expectTotals({ listed: 3, EXPIRED: 2, PARTIALLY_REFUNDED: 1, REFUNDED: 1 });
    // Narrowed by reference or by date, the list counts its matches as before.
    const dated = await app.request('GET', `/api/commerce/checkout/orders?from=2000-01-01`, { token: merchant.sessionToken });
    expect(dated.body.meta.total).toBe(3);
  });
});
