import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectPageHeaders } from '../support/page-headers';
import { signup, startTestApp, TestApp, TestResponse } from '../support/test-app';
import { createSubVendor, dataOf, errorEnvelope, issueApiKey, outbox } from '../support/split-fixtures';

/** Magic links work once, within MAGIC_LINK_TTL_SECONDS of real time, and their owner can ask for a new one. */
describe('magic links over HTTP', () => {
  let app: TestApp;
  let apiKey: string;
  beforeAll(async () => {
    app = await startTestApp({ MAGIC_LINK_TTL_SECONDS: '2' });
    apiKey = await issueApiKey(app, (await signup(app, 'Link Staffing')).sessionToken);
  });
  afterAll(async () => {
    await app.close();
  });

  const messagesTo = async (email: string) => (await outbox(app)).filter((m) => m.to === email.toLowerCase());
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const redeem = (token: string) => app.request('POST', '/api/auth/magic-link/sign-in', { body: { token } });
  const requestLink = (email: unknown) => app.request('POST', '/api/auth/magic-link', { body: { email } });
  const expectRefused = (response: TestResponse, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.body).toEqual(errorEnvelope(code));
  };

  async function passwordlessAccount(): Promise<string> {
    const email = `contractor-${Math.random().toString(36).slice(2)}@example.test`;
    await createSubVendor(app, apiKey, { email });
    return email;
  }

  it('sends a new sign-in link to a passwordless account on request; the first link expires unused', async () => {
    const email = await passwordlessAccount();
    const [welcome] = await messagesTo(email);
    expect(welcome!.body).toContain('works once, until');

    const events = await app.eventCount();
    const requested = await requestLink(email.toUpperCase());
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({ data: { requested: true } });
    expect(await app.eventCount()).toBe(events);
    const messages = await messagesTo(email);
    expect(messages).toHaveLength(2);
    const fresh = messages.find((message) => message.id !== welcome!.id)!;
    expect(fresh.subject).toBe('Your Paysplit sign-in link');

    const signedIn = await redeem(tokenOf(fresh.link));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.sessionToken).toMatch(/^sess_/);

    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expectRefused(await redeem(tokenOf(welcome!.link)), 401, 'MAGIC_LINK_INVALID');
  });

  it('keeps no usable sign-in token in the data directory: links are hashed, outbox messages sealed (issue 15)', async () => {
    const email = await passwordlessAccount();
    const [welcome] = await messagesTo(email);
    const token = tokenOf(welcome!.link);
    expect(token.length).toBeGreaterThan(20);
    const dir = app.platform.config.dataDir;
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect({ file, holdsToken: bytes.includes(token), holdsEmailInBody: bytes.includes(`Sign in to see your payouts`) }).toEqual({
        file,
        holdsToken: false,
        holdsEmailInBody: false,
      });
    }
    expect((await redeem(token)).status).toBe(200);
  });

  it('answers the same, and sends nothing, for an unknown email or an account with a confirmed password', async () => {
    const owner = await signup(app, 'Has Password');
    const [confirmation] = await messagesTo(owner.email);
    expect((await redeem(tokenOf(confirmation!.link))).status).toBe(200);
    const before = (await outbox(app)).length;
    for (const email of ['nobody@example.test', owner.email]) {
      const requested = await requestLink(email);
      expect(requested.status).toBe(202);
      expect(requested.body).toEqual({ data: { requested: true } });
    }
    expect((await outbox(app)).length).toBe(before);
  });

  it('sends a new confirmation link to a password sign-up that has not confirmed its address (issue 24)', async () => {
    const owner = await signup(app, 'Lost The Email');
    expect(await messagesTo(owner.email)).toHaveLength(1);
    const requested = await requestLink(owner.email);
    expect(requested.body).toEqual({ data: { requested: true } });
    const messages = await messagesTo(owner.email);
    expect(messages.map((message) => message.subject)).toEqual(['Confirm your email for Paysplit', 'Confirm your email for Paysplit']);
    const fresh = messages.find((message) => message.id !== messages[0]!.id) ?? messages[1]!;
    expect((await redeem(tokenOf(fresh.link))).status).toBe(200);
    expect(dataOf(await app.request('GET', '/api/auth/me', { token: owner.sessionToken }), 200).emailVerified).toBe(true);
  });

  it.each([
    ['not an email', 'dana'],
    ['a number', 42],
    ['missing', undefined],
  ])('refuses %s with 400', async (_label, email) => {
    expectRefused(await requestLink(email), 400, 'VALIDATION_FAILED');
  });
  describe('opening the link: every client gets the page, only the POST signs in', () => {
    const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const open = (link: string, accept?: string) => fetch(link.replace(app.platform.config.publicBaseUrl, app.url), { headers: accept ? { accept } : {} });
    const signIn = (token: string, accept: string) =>
      fetch(`${app.url}/api/auth/magic-link/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { accept, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });

    it('a browser gets a Sign in page that uses nothing; pressing the button signs in once and sets the session cookie', async () => {
      const email = await passwordlessAccount();
      const [welcome] = await messagesTo(email);
      const events = await app.eventCount();
      for (let i = 0; i < 2; i += 1) {
        // A mail scanner opening the link, then its owner: neither uses it up.
        const landing = await open(welcome!.link, BROWSER_ACCEPT);
        expect(landing.status).toBe(200);
        expect(landing.headers.get('content-type')).toMatch(/^text\/html/);
        expectPageHeaders(landing.headers, "'none'");
        const html = await landing.text();
        expect(html).toContain('<h1>Sign in to Paysplit</h1>');
        expect(html).toContain('action="/api/auth/magic-link/sign-in"');
        expect(html).toContain(`name="token" value="${tokenOf(welcome!.link)}"`);
        expect(html).toContain('/assets/pages.css');
      }
      const signedIn = await signIn(tokenOf(welcome!.link), BROWSER_ACCEPT);
      expect(signedIn.status).toBe(200);
      expectPageHeaders(signedIn.headers, "'none'");
      expect(await signedIn.text()).toContain('You are signed in');
      const cookie = signedIn.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^paysplit_session=sess_[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
      const session = /paysplit_session=([^;]+)/.exec(cookie)![1]!;
      expect((await app.request('GET', '/api/commerce/company', { token: session })).status).toBe(200);

      const again = await signIn(tokenOf(welcome!.link), BROWSER_ACCEPT);
      expect(again.status).toBe(401);
      expect(again.headers.get('set-cookie')).toBeNull();
      const html = await again.text();
      expect(html).toContain('This sign-in link does not work any more');
      expect(html).toContain('action="/api/auth/magic-link"');
      expect(await app.eventCount()).toBe(events);
    });

    it('the new-link form answers a page to a browser and sends a link as the JSON call does', async () => {
      const email = await passwordlessAccount();
      const before = (await messagesTo(email)).length;
      const response = await fetch(`${app.url}/api/auth/magic-link`, {
        method: 'POST',
        headers: { accept: BROWSER_ACCEPT, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email }).toString(),
      });
      expect(response.status).toBe(202);
      expectPageHeaders(response.headers, "'none'");
      expect(await response.text()).toContain('Check your email');
      expect(await messagesTo(email)).toHaveLength(before + 1);
    });

    it.each([
      ['no Accept', undefined],
      ['*/*', '*/*'],
      ['application/json', 'application/json'],
      ['JSON and HTML alike', 'application/json, text/html'],
    ])('a GET never uses the link (%s, as mail scanners send): the page, then its owner signs in by POST (issue 24)', async (_label, accept) => {
      const email = await passwordlessAccount();
      const [welcome] = await messagesTo(email);
      const events = await app.eventCount();
      for (let i = 0; i < 2; i += 1) {
        const response = await open(welcome!.link, accept);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(response.headers.get('set-cookie')).toBeNull();
        expectPageHeaders(response.headers, "'none'");
        const html = await response.text();
        expect(html).toContain('action="/api/auth/magic-link/sign-in"');
        expect(html).not.toContain('sess_');
      }
      expect(await app.eventCount()).toBe(events);
      const signedIn = await redeem(tokenOf(welcome!.link));
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.data.sessionToken).toMatch(/^sess_/);
      expectRefused(await redeem(tokenOf(welcome!.link)), 401, 'MAGIC_LINK_INVALID');
    });

    it('a GET without a token is 400 in the envelope', async () => {
      expectRefused(await app.request('GET', '/api/auth/magic-link'), 400, 'VALIDATION_FAILED');
    });

    it('POST /api/auth/magic-link/sign-in with JSON answers the session token, then 401 in the envelope', async () => {
      const email = await passwordlessAccount();
      const [welcome] = await messagesTo(email);
      const body = { token: tokenOf(welcome!.link) };
      const first = await app.request('POST', '/api/auth/magic-link/sign-in', { body });
      expect(first.status).toBe(200);
      expect(first.body.data.sessionToken).toMatch(/^sess_/);
      expectRefused(await app.request('POST', '/api/auth/magic-link/sign-in', { body }), 401, 'MAGIC_LINK_INVALID');
      expectRefused(await app.request('POST', '/api/auth/magic-link/sign-in', { body: {} }), 400, 'VALIDATION_FAILED');
    });
  });
});
