import { CARDS, confirm, createdCheckout, createMerchant, Merchant, orderStatus } from '../browser/checkout-fixtures';
import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The merchant dashboard's lists by session: orders, subscriptions and payment links. */
describe('merchant lists over HTTP', () => {
  let app: TestApp;
  let merchant: Merchant;
  let other: Merchant;
  beforeAll(async () => {
    app = await startTestApp();
    [merchant, other] = await Promise.all([createMerchant(app, 'List Shop'), createMerchant(app, 'Other Shop')]);
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (path: string, token?: string) => app.request('GET', path, { token });
  /** Newest first is by creation time: one sandbox second apart, so two creations never tie. */
  const tick = () => app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 1 } });

  it("lists the merchant's orders newest first, filtered by status, without the buyer's credentials", async () => {
    const open = await createdCheckout(app, merchant.apiKey, { amountMinorUnits: '1000', checkoutMode: 'EMBEDDED' });
    await tick();
    const paid = await createdCheckout(app, merchant.apiKey, { amountMinorUnits: '2000', checkoutMode: 'EMBEDDED' });
    dataOf(await confirm(app, paid.orderId, paid.clientSecret, CARDS.ok), 200);
    await createdCheckout(app, other.apiKey);
    await app.eventCount();

    const listed = await get('/api/commerce/checkout/orders', merchant.sessionToken);
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    expect(listed.body.data.map((o: any) => [o.id, o.status, o.amountMinorUnits])).toEqual([
      [paid.orderId, 'PAID', '2000'],
      [open.orderId, 'OPEN', '1000'],
    ]);
    expect(listed.body.data[0]).toMatchObject({ currency: 'USD', provider: 'CARD_PROCESSOR', card: { brand: expect.any(String), last4: '4242' }, paidAt: expect.any(String) });
    expect(listed.text).not.toContain(open.clientSecret);
    for (const order of listed.body.data) {
      expect(order).not.toHaveProperty('clientSecret');
      expect(order).not.toHaveProperty('pageToken');
      expect(order).not.toHaveProperty('merchantCompanyId');
    }
    expect(dataOf(await get('/api/commerce/checkout/orders?status=PAID', merchant.sessionToken), 200).map((o: any) => o.id)).toEqual([paid.orderId]);
    expect(dataOf(await get('/api/commerce/checkout/orders?limit=1&page=2', merchant.sessionToken), 200).map((o: any) => o.id)).toEqual([open.orderId]);
  });

  it("lists the merchant's subscriptions with their record and start time", async () => {
    const founding = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '990' });
    dataOf(await confirm(app, founding.orderId, founding.clientSecret, CARDS.ok), 200);
    const { subscriptionId } = await orderStatus(app, founding.orderId);
    await app.eventCount();
    const record = dataOf(await get(`/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
    const listed = dataOf(await get('/api/commerce/checkout/subscriptions', merchant.sessionToken), 200);
    // The merchant's list adds who it is for and the buyer's own page (issue 29) to the subscription's record.
    expect(listed).toEqual([
      {
        ...record,
        createdAt: expect.any(String),
        foundingOrderId: founding.orderId,
        externalOrderRef: null,
        manageUrl: expect.stringMatching(new RegExp(`/subscriptions/${subscriptionId}$`)),
      },
    ]);
    expect(dataOf(await get('/api/commerce/checkout/subscriptions?status=CANCELLED', merchant.sessionToken), 200)).toEqual([]);
    expect(dataOf(await get('/api/commerce/checkout/subscriptions', other.sessionToken), 200)).toEqual([]);
  });

  it("lists the merchant's payment links with their URL, newest first", async () => {
    const create = (title: string) =>
      app.request('POST', '/api/commerce/payment-links', { token: merchant.sessionToken, body: { title, amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR' } });
    const first = dataOf(await create('Yoga class'), 201);
    await tick();
    const second = dataOf(await create('Pilates class'), 201);
    const listed = await get('/api/commerce/payment-links', merchant.sessionToken);
    expect(listed.body).toEqual({
      data: [
        { slug: second.slug, url: second.url, title: 'Pilates class', amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR', createdAt: expect.any(String) },
        { slug: first.slug, url: first.url, title: 'Yoga class', amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR', createdAt: expect.any(String) },
      ],
      meta: { page: 1, limit: 20, total: 2, totalPages: 1 },
    });
    expect(dataOf(await get('/api/commerce/payment-links', other.sessionToken), 200)).toEqual([]);
  });

  it('takes a session only, and refuses bad queries with 400', async () => {
    for (const path of ['/api/commerce/checkout/orders', '/api/commerce/checkout/subscriptions', '/api/commerce/payment-links']) {
      expect((await get(path)).status).toBe(401);
      const byKey = await get(path, merchant.apiKey);
      expect([path, byKey.status, byKey.body]).toEqual([path, 403, errorEnvelope('CREDENTIAL_NOT_ALLOWED')]);
    }
    for (const path of [
      '/api/commerce/checkout/orders?status=DONE',
      '/api/commerce/checkout/subscriptions?status=PAUSED',
      '/api/commerce/payment-links?limit=500',
      '/api/commerce/checkout/orders?x=1',
    ]) {
      const refused = await get(path, merchant.sessionToken);
      expect([path, refused.status, refused.body]).toEqual([path, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
  });
});
