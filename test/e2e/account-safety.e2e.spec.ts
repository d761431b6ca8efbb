import { advance, createdCheckout, createMerchant, Merchant, orderStatus } from '../browser/checkout-fixtures';
import { dataOf } from '../support/split-fixtures';
import { signup, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 24: accounts that cannot be taken over or locked out by someone else. Each test failed on the
 * code before the issue.
 */
describe('login limits count failures only, per real client address (issue 24 item 5)', () => {
  describe('without TRUST_PROXY (the default)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => {
      await app.close();
    });
    const login = (email: string, password: string, headers: Record<string, string> = {}) => app.request('POST', '/api/auth/login', { body: { email, password }, headers });

    it('a right password never counts: an account signs in 15 times in a row within the window', async () => {
      const { email } = await signup(app, 'Busy Integration');
      for (let i = 0; i < 15; i++) expect((await login(email, 'correct horse battery')).status).toBe(200);
      // Failures still count, from zero: ten are refused with 401, the next attempt is limited.
      for (let i = 0; i < 10; i++) expect((await login(email, 'wrong password!')).status).toBe(401);
      const limited = await login(email, 'correct horse battery');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
    });

    it('ignores X-Forwarded-For: a client cannot step around the per-IP limit by sending one', async () => {
      // Each attempt claims another address; all come from 127.0.0.1, so the 100-a-window IP limit is hit
      // within 101 attempts whatever the earlier tests of this app used.
      const statuses: number[] = [];
      for (let i = 0; i <= 100 && !statuses.includes(429); i++) {
        statuses.push((await login(`nobody-${i}@example.test`, 'guess', { 'x-forwarded-for': `198.51.100.${i % 250}` })).status);
      }
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    });
  });

  describe('with TRUST_PROXY=true (behind a load balancer that sets X-Forwarded-For)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ TRUST_PROXY: 'true' });
    });
    afterAll(async () => {
      await app.close();
    });
    const login = (email: string, forwardedFor: string) =>
      app.request('POST', '/api/auth/login', { body: { email, password: 'guess' }, headers: { 'x-forwarded-for': forwardedFor } });

    it('limits each client address on its own: one noisy client does not lock out everyone behind the balancer', async () => {
      for (let i = 0; i < 100; i++) expect((await login(`nobody-${i}@example.test`, '203.0.113.7')).status).toBe(401);
      expect((await login('nobody-100@example.test', '203.0.113.7')).status).toBe(429);
      expect((await login('nobody-101@example.test', '203.0.113.8')).status).toBe(401);
      const owner = await signup(app, 'Behind The Balancer');
      const signedIn = await app.request('POST', '/api/auth/login', {
        body: { email: owner.email, password: 'correct horse battery' },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(signedIn.status).toBe(200);
    });
  });
});

describe('payment links: orders limited per client address and per link; unpaid ones leave the default list (issue 24 item 6)', () => {
  let app: TestApp;
  let merchant: Merchant;
  const PER_LINK = 40;
  beforeAll(async () => {
    app = await startTestApp({ TRUST_PROXY: 'true', PAYMENT_LINK_ORDERS_PER_LINK: String(PER_LINK) });
    merchant = await createMerchant(app, 'Flooded Shop');
  });
  afterAll(async () => {
    await app.close();
  });

  const newLink = async (title: string) =>
    dataOf(
      await app.request('POST', '/api/commerce/payment-links', {
        token: merchant.sessionToken,
        body: { title, amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR' },
      }),
      201,
    ).slug as string;
  const start = (slug: string, address: string, accept = 'application/json') =>
    fetch(`${app.url}/checkout/${slug}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address, accept },
      body: '',
    });
  const orders = async (query = '') =>
    dataOf(await app.request('GET', `/api/commerce/checkout/orders?limit=100${query}`, { token: merchant.sessionToken }), 200) as { id: string; status: string }[];
  const orderIdOf = (response: Response) => response.headers.get('location')!.split('/')[2]!.split('?')[0]!;

  it('refuses the 31st order from one address with 429, Retry-After and the error envelope (a page for a browser), and makes no order', async () => {
    const slug = await newLink('Per address');
    for (let i = 0; i < 30; i++) expect((await start(slug, '203.0.113.10')).status).toBe(303);
    const before = (await orders()).length;
    const limited = await start(slug, '203.0.113.10');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 600).toBe(true);
    expect(await limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringContaining('try again in'), details: [] } });
    const page = await start(slug, '203.0.113.10', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Please wait');
    expect((await orders()).length).toBe(before);
    // Another address is not held back by this one (any link).
    expect((await start(slug, '203.0.113.11')).status).toBe(303);
  });

  it('refuses orders on one link beyond its own allowance, whatever the address; other links go on', async () => {
    const slug = await newLink('Per link');
    const statuses: number[] = [];
    for (let i = 0; i < PER_LINK + 2; i++) statuses.push((await start(slug, `198.51.100.${i}`)).status);
    expect(statuses.slice(0, PER_LINK).every((status) => status === 303)).toBe(true);
    expect(statuses.slice(PER_LINK)).toEqual([429, 429]);
    expect((await start(await newLink('Another link'), '198.51.100.200')).status).toBe(303);
  });

  it('an unpaid link order expires after 24 hours and leaves the default order list; ?status=EXPIRED still shows it', async () => {
    const slug = await newLink('Abandoned');
    const linkOrder = orderIdOf(await start(slug, '192.0.2.50'));
    const apiOrder = (await createdCheckout(app, merchant.apiKey)).orderId as string;
    expect((await orders()).map((order) => order.id)).toEqual(expect.arrayContaining([linkOrder, apiOrder]));
    await advance(app, 24 * 3600 + 1);
    expect((await orderStatus(app, linkOrder)).status).toBe('EXPIRED');
    expect((await orderStatus(app, apiOrder)).status).toBe('EXPIRED');
    const listed = (await orders()).map((order) => order.id);
    expect(listed).not.toContain(linkOrder);
    expect(listed).toContain(apiOrder);
    const expired = await orders('&status=EXPIRED');
    expect(expired.map((order) => order.id)).toEqual(expect.arrayContaining([linkOrder, apiOrder]));
    expect(Object.keys(expired.find((order) => order.id === linkOrder)!)).not.toContain('unlisted');
  });
});
