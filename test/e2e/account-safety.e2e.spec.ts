import { advance, createdCheckout, createMerchant, Merchant, orderStatus } from '../browser/checkout-fixtures';
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../src/identity/application/password-hasher';
import { accountStreamId } from '../../src/identity/domain/identity.events';
import { normalizeEmail } from '../../src/platform/domain/email';
import { newId, sha256Hex } from '../../src/platform/ids/ids';
import { subVendorStreamId } from '../../src/parties/domain/parties.events';
import { createdSplit, createSubVendor, dataOf, emailRow, errorEnvelope, outbox, setupSplitWorld, splitBody, SplitWorld, uniqueEmail } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** A password sign-up with a chosen email (the shared signup helper makes up its own address). */
async function signupAs(app: TestApp, email: string, companyName = 'Squatter Ltd'): Promise<{ companyId: string; userId: string; sessionToken: string; email: string }> {
  const response = await app.request('POST', '/api/auth/signup', { body: { companyName, email, password: 'correct horse battery' } });
  expect(response.status).toBe(201);
  return { ...response.body.data, email };
}
const signup = (app: TestApp, companyName = 'Acme') => signupAs(app, uniqueEmail(companyName), companyName);

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
    // Orders started on a link are projected by the worker after the 303: count them once it caught up.
    await app.eventCount();
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
    await app.eventCount();
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
    // Both creates answer before the worker projects the order list: list it once the worker caught up.
    await app.eventCount();
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

describe('an account is not claimed before its owner arrives: sign-ups prove their address (issue 24 item 4)', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const messagesTo = async (email: string) => (await outbox(app)).filter((message) => message.to === normalizeEmail(email));
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const signIn = (token: string) => app.request('POST', '/api/auth/magic-link/sign-in', { body: { token } });
  const login = (email: string) => app.request('POST', '/api/auth/login', { body: { email, password: 'correct horse battery' } });
  const me = async (token: string) => dataOf(await app.request('GET', '/api/auth/me', { token }), 200);
  /** The account a SubVendor was attached to, from its stored event (the API shape need not show it). */
  const attachedUser = async (subVendorId: string) => {
    const [created] = await app.platform.events.readStream(subVendorStreamId(subVendorId));
    return (created!.data as { userId: string | null }).userId;
  };

  it('a password sign-up is unverified and gets a confirmation link; following it verifies the address', async () => {
    const owner = await signup(app, 'Honest Co');
    expect(await me(owner.sessionToken)).toMatchObject({ kind: 'company', emailVerified: false });
    const [confirm] = await messagesTo(owner.email);
    expect(confirm!.subject).toBe('Confirm your email for Paysplit');
    expect(confirm!.body).toContain('If it was you, confirm it');
    const signedIn = await signIn(tokenOf(confirm!.link));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ userId: owner.userId, companyId: owner.companyId });
    expect(await me(owner.sessionToken)).toMatchObject({ emailVerified: true });
    // Verified: a roster email attaches to it at once, as spec 4.5 case 2 says; no account is made.
    const vendor = await createSubVendor(app, world.sme.apiKey, { email: owner.email.toUpperCase() });
    expect(await attachedUser(vendor.id)).toBe(owner.userId);
    expect(await messagesTo(owner.email)).toHaveLength(1);
  });

  it('a SubVendor by email never attaches to an unverified sign-up: the address is provisioned for its owner, who proves it by the link', async () => {
    const bob = uniqueEmail('bob');
    const squatter = await signupAs(app, bob);
    const vendor = await createSubVendor(app, world.sme.apiKey, { email: bob });
    const ownerId = await attachedUser(vendor.id);
    expect(ownerId).toMatch(/^usr_/);
    expect(ownerId).not.toBe(squatter.userId);

    const messages = await messagesTo(bob);
    expect(messages.map((message) => message.subject)).toEqual(['Confirm your email for Paysplit', 'Your Paysplit account is ready']);
    // The squatter lost the address: no password sign-in with it, and its confirmation link is dead.
    expect((await login(bob)).status).toBe(401);
    const dead = await signIn(tokenOf(messages[0]!.link));
    expect(dead.status).toBe(401);
    expect(dead.body).toEqual(errorEnvelope('MAGIC_LINK_INVALID'));
    // The real owner signs in with the link sent to the address, as the provisioned account.
    const owner = await signIn(tokenOf(messages[1]!.link));
    expect(owner.status).toBe(200);
    expect(owner.body.data.userId).toBe(ownerId);
    expect(await me(owner.body.data.sessionToken)).toMatchObject({ email: bob, kind: 'contractor', emailVerified: true });
    // The squatter's company is untouched: its session still works for what a company does.
    expect((await app.request('GET', '/api/commerce/company', { token: squatter.sessionToken })).status).toBe(200);
  });

  it('a Split row by email does not pay an unverified sign-up either', async () => {
    const carol = uniqueEmail('carol');
    const squatter = await signupAs(app, carol);
    const split = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [emailRow(carol, '5000', { fullName: 'Carol Real' })] }));
    const subVendorId = split.distributions[0].subVendorId as string;
    const ownerId = await attachedUser(subVendorId);
    expect(ownerId).not.toBe(squatter.userId);
    expect((await messagesTo(carol)).map((message) => message.subject)).toContain('Your Paysplit account is ready');
  });

  it('an unverified account cannot withdraw (422 EMAIL_NOT_VERIFIED); once verified, the usual rules answer', async () => {
    const eve = await signup(app, 'Eve Co');
    const withdraw = () => app.request('POST', '/api/commerce/me/withdrawals', { token: eve.sessionToken, body: { amountCents: '100', currency: 'USD' } });
    const refused = await withdraw();
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(errorEnvelope('EMAIL_NOT_VERIFIED'));
    const [confirm] = await messagesTo(eve.email);
    expect((await signIn(tokenOf(confirm!.link))).status).toBe(200);
    const after = await withdraw();
    expect(after.status).toBe(422);
    expect(after.body.error.code).toMatch(/^WITHDRAWAL_(INSUFFICIENT_BALANCE|WALLET_NOT_READY)$/);
  });

  it('an unverified company keeps doing what companies do: API keys, SubVendors, Splits (the README walk)', async () => {
    const sme = await signup(app, 'Fresh Staffing');
    const key = dataOf(await app.request('POST', '/api/commerce/api-keys', { token: sme.sessionToken, body: { name: 'server', scopes: ['split:write'] } }), 201).key as string;
    const split = await createdSplit(app, key, splitBody(world, { roster: [emailRow(uniqueEmail('dana'), '2500')] }));
    expect(split.status).toBe('PENDING_APPROVAL');
  });

  it('accounts registered before verification existed count as verified: their events fold, they sign in and are attached', async () => {
    const email = uniqueEmail('veteran');
    const nowMs = Date.now();
    const [companyId, userId] = [newId('co', nowMs), newId('usr', nowMs)];
    const at = new Date(nowMs).toISOString();
    const metadata = { correlationId: 'test-old-data', causationId: null, actor: `user:${userId}`, occurredAt: at };
    await app.platform.events.append(
      accountStreamId(sha256Hex(email)),
      [
        { id: randomUUID(), type: 'company.registered', data: { companyId, name: 'Veteran Co', registeredAt: at }, metadata },
        { id: randomUUID(), type: 'user.registered', data: { userId, companyId, email, passwordHash: await hashPassword('correct horse battery'), registeredAt: at }, metadata },
      ],
      'no_stream',
    );
    await app.eventCount();
    const signedIn = await login(email);
    expect(signedIn.status).toBe(200);
    expect(await me(signedIn.body.data.sessionToken)).toMatchObject({ userId, kind: 'company', emailVerified: true });
    const vendor = await createSubVendor(app, world.sme.apiKey, { email });
    expect(await attachedUser(vendor.id)).toBe(userId);
    expect(await messagesTo(email)).toHaveLength(0);
  });
});
