import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { invitedMember } from '../support/team-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { advance, CARDS, confirm, createdCheckout, createMerchant, Merchant } from '../browser/checkout-fixtures';

/**
 * Issue 29 items 6 and 8 over HTTP: the merchant's orders between two dates and one order's detail, its subscriptions
 * with who they are for and their card, the merchant's cancel of a subscription (MERCHANT_REQUEST), and the buyer's
 * subscription page linked from the receipt.
 */
describe('Checkout for the merchant and the buyer (issue 29)', () => {
  let app: TestApp;
  let shop: Merchant;
  let other: Merchant;

  beforeAll(async () => {
    app = await startTestApp();
    shop = await createMerchant(app, 'Dated Shop');
    other = await createMerchant(app, 'Other Shop');
  });
  afterAll(async () => {
    await app.close();
  });

  const orders = (merchant: Merchant, query: string) => app.request('GET', `/api/commerce/checkout/orders?${query}`, { token: merchant.sessionToken });
  async function paidSubscription(merchant: Merchant, ref: string) {
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY', externalOrderRef: ref, amountMinorUnits: '1250' });
    dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
    await app.eventCount();
    const status = dataOf(await app.request('GET', `/api/commerce/checkout/orders/${order.orderId}/status`), 200);
    return { orderId: order.orderId as string, subscriptionId: status.subscriptionId as string };
  }

  it('lists the orders created in [from, to), counts only those, and refuses a bad window in the envelope', async () => {
    const early = await createdCheckout(app, shop.apiKey, { externalOrderRef: 'dated-early' });
    await advance(app, 3 * 86_400);
    const late = await createdCheckout(app, shop.apiKey, { externalOrderRef: 'dated-late' });
    // A create answers before the worker projects the order (create-checkout waits for no read model).
    await app.eventCount();
    const clock = dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
    const lateDay = clock.slice(0, 10);

    const fromLateDay = await orders(shop, `from=${lateDay}`);
    expect(dataOf(fromLateDay, 200).map((o: { id: string }) => o.id)).toEqual([late.orderId]);
    expect(fromLateDay.body.meta.total).toBe(1);
    const beforeLateDay = dataOf(await orders(shop, `to=${lateDay}`), 200).map((o: { id: string }) => o.id);
    expect(beforeLateDay).toContain(early.orderId);
    expect(beforeLateDay).not.toContain(late.orderId);

    const bad = await orders(shop, 'from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorEnvelope('VALIDATION_FAILED', [{ field: 'from', message: expect.stringContaining('ISO 8601') }]));
    const backwards = await orders(shop, 'from=2026-12-02&to=2026-12-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body).toEqual(errorEnvelope('VALIDATION_FAILED', [{ field: 'from', message: 'must not be after to' }]));
  });

  it("reads one of its orders; another merchant's is 404", async () => {
    const order = await createdCheckout(app, shop.apiKey, { externalOrderRef: 'detail-1' });
    await app.eventCount();
    const read = dataOf(await app.request('GET', `/api/commerce/checkout/orders/${order.orderId}`, { token: shop.sessionToken }), 200);
    expect(read).toMatchObject({ id: order.orderId, externalOrderRef: 'detail-1', status: 'OPEN', amountMinorUnits: '1999', currency: 'USD', refundedMinorUnits: '0' });
    expect(read).not.toHaveProperty('pageTokenHash');
    expect(read).not.toHaveProperty('merchantCompanyId');
    const foreign = await app.request('GET', `/api/commerce/checkout/orders/${order.orderId}`, { token: other.sessionToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(errorEnvelope('CHECKOUT_ORDER_NOT_FOUND'));
  });

  it('lists subscriptions with the founding order, its reference, the card and the buyer page; the merchant cancels (MERCHANT_REQUEST), once', async () => {
    const { orderId, subscriptionId } = await paidSubscription(shop, 'customer-77');
    const listed = dataOf(await app.request('GET', '/api/commerce/checkout/subscriptions', { token: shop.sessionToken }), 200).find(
      (s: { subscriptionId: string }) => s.subscriptionId === subscriptionId,
    );
    expect(listed).toMatchObject({
      status: 'ACTIVE',
      foundingOrderId: orderId,
      externalOrderRef: 'customer-77',
      card: { brand: 'visa', last4: '4242' },
      manageUrl: `${app.platform.config.hostedCheckoutUrl}/subscriptions/${subscriptionId}`,
    });

    const cancelPath = `/api/commerce/integration/checkout/subscriptions/${subscriptionId}/cancel`;
    expect((await app.request('POST', cancelPath, { token: other.sessionToken })).body).toEqual(errorEnvelope('CHECKOUT_SUBSCRIPTION_NOT_FOUND'));
    const viewer = await invitedMember(app, shop.sessionToken, 'viewer');
    expect((await app.request('POST', cancelPath, { token: viewer.sessionToken })).status).toBe(403);
    expect(dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200).status).toBe('ACTIVE');

    const cancelled = dataOf(await app.request('POST', cancelPath, { token: shop.sessionToken }), 200);
    expect(cancelled).toMatchObject({ subscriptionId, status: 'CANCELLED', cancellationReason: 'MERCHANT_REQUEST', externalOrderRef: 'customer-77' });
    const events = await app.eventCount();
    // Again, with the API key: the same answer, nothing recorded.
    expect(dataOf(await app.request('POST', cancelPath, { token: shop.apiKey }), 200)).toEqual(cancelled);
    expect(await app.eventCount()).toBe(events);
  });

  it("the receipt says the interval, the next charge and links the buyer's page, where the buyer confirms a cancel", async () => {
    const order = await createdCheckout(app, shop.apiKey, { subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '1250' });
    const path = new URL(order.redirectUrl).pathname + new URL(order.redirectUrl).search;
    const paid = await fetch(`${app.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      // A subscription order's form asks the buyer's email (renewal emails, issue 29).
      body: new URLSearchParams({
        t: new URL(order.redirectUrl).searchParams.get('t')!,
        customerEmail: 'buyer@example.com',
        number: CARDS.ok,
        expMonth: '12',
        expYear: '2040',
        cvc: '123',
      }).toString(),
    });
    expect(paid.status).toBe(303);
    await app.eventCount();
    const receipt = await (await fetch(`${app.url}${path.replace(/\?/, '/receipt?')}`)).text();
    const subscriptionId = /href="\/subscriptions\/(sub_[0-9a-z]+)"/.exec(receipt)?.[1];
    expect(subscriptionId).toBeDefined();
    expect(receipt).toContain('<dt>Subscription</dt><dd>$12.50 every month</dd>');
    expect(receipt).toMatch(/<dt>Next charge<\/dt><dd>\$12\.50 on [A-Z][a-z]+ \d{1,2}, \d{4} at .* UTC<\/dd>/);
    // Inside a frame the link opens a tab of its own (the subscription page refuses to be framed).
    const framed = await (await fetch(`${app.url}${path.replace(/\?/, '/receipt?')}&embed=true`)).text();
    expect(framed).toContain(`<a href="/subscriptions/${subscriptionId}" target="_blank" rel="noopener">your subscription page</a>`);
    expect(receipt).not.toContain('target="_blank"');

    const manage = await fetch(`${app.url}/subscriptions/${subscriptionId}`);
    expect(manage.status).toBe(200);
    expect(await manage.text()).toContain('Visa ending in 4242');
    expect(await (await fetch(`${app.url}/subscriptions/${subscriptionId}/cancel`)).text()).toContain('will not be made');
    const cancel = await fetch(`${app.url}/subscriptions/${subscriptionId}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe(`/subscriptions/${subscriptionId}?cancelled=1`);
    expect(dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200)).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'BUYER_REQUEST',
    });
    expect((await fetch(`${app.url}/subscriptions/sub_unknown`)).status).toBe(404);
  });
});
