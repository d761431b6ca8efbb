import { signup, startTestApp, TestApp } from '../support/test-app';
import { createSubVendor, errorEnvelope, issueApiKey, outbox } from '../support/split-fixtures';
import { browser, DASHBOARD_ENV, OWN_ORIGIN, sessionCookie } from '../support/dashboard-fixtures';

/** The dashboard's credential: an HttpOnly session cookie, accepted only under the CSRF Origin rule (DESIGN.md section 12). */
describe('dashboard session cookie over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
  });
  afterAll(async () => {
    await app.close();
  });

  async function loggedIn(name = 'Cookie Co') {
    const owner = await signup(app, name);
    const login = await app.request('POST', '/api/auth/login', { body: { email: owner.email, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    return { ...owner, cookie: sessionCookie(login), setCookie: login.headers.get('set-cookie')! };
  }
  const createKey = (headers: Record<string, string>, token?: string) =>
    app.request('POST', '/api/commerce/api-keys', { headers, token, body: { name: 'from the dashboard', scopes: ['split:write'] } });

  it('signup and login set an HttpOnly SameSite=Strict cookie holding a session (no Secure over http)', async () => {
    const created = await app.request('POST', '/api/auth/signup', { body: { companyName: 'Jar', email: 'jar@example.test', password: 'correct horse battery' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('set-cookie')).toBe(`paysplit_session=${created.body.data.sessionToken}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200`);
    const { setCookie } = await loggedIn();
    expect(setCookie).toMatch(/^paysplit_session=sess_[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
  });

  it('sets no cookie for a login another site made (login CSRF), but answers the token as before', async () => {
    const owner = await signup(app, 'Login Csrf');
    const body = { email: owner.email, password: 'correct horse battery' };
    const foreign = await app.request('POST', '/api/auth/login', { body, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(200);
    expect(foreign.body.data.sessionToken).toMatch(/^sess_/);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const own = await app.request('POST', '/api/auth/login', { body, headers: { origin: OWN_ORIGIN } });
    expect(own.headers.get('set-cookie')).toMatch(/^paysplit_session=sess_/);
  });

  it('GET /api/auth/me answers who the cookie (or a Bearer session) belongs to', async () => {
    const owner = await loggedIn('Me Inc');
    const me = await app.request('GET', '/api/auth/me', { headers: browser(owner.cookie, null) });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      data: {
        userId: owner.userId,
        companyId: owner.companyId,
        companyName: 'Me Inc',
        email: owner.email,
        kind: 'company',
        emailVerified: false,
        role: 'owner',
        companies: [{ companyId: owner.companyId, companyName: 'Me Inc', role: 'owner' }],
      },
    });
    expect((await app.request('GET', '/api/auth/me', { token: owner.sessionToken })).body.data.userId).toBe(owner.userId);
    const none = await app.request('GET', '/api/auth/me');
    expect(none.status).toBe(401);
    expect(none.body).toEqual(errorEnvelope('UNAUTHENTICATED'));
    const apiKey = await issueApiKey(app, owner.sessionToken);
    const byKey = await app.request('GET', '/api/auth/me', { token: apiKey });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual(errorEnvelope('CREDENTIAL_NOT_ALLOWED'));
  });

  it('refuses a cookie-authenticated write from another origin (or none) and appends nothing; the own origin passes; Bearer is unaffected', async () => {
    const owner = await loggedIn('Csrf Co');
    const before = await app.eventCount();
    for (const origin of ['https://evil.example', 'null', `${OWN_ORIGIN}.evil.example`, null]) {
      const refused = await createKey(browser(owner.cookie, origin));
      expect([origin, refused.status]).toEqual([origin, 403]);
      expect(refused.body).toEqual(errorEnvelope('CSRF_ORIGIN_MISMATCH'));
    }
    expect(await app.eventCount()).toBe(before);
    const keys = await app.request('GET', '/api/commerce/api-keys', { token: owner.sessionToken });
    expect(keys.body.data).toEqual([]);

    // `Origin: null` (a form under Referrer-Policy: no-referrer, or a sandboxed frame) counts only with the browser's Sec-Fetch-Site: same-origin.
    const sandboxed = await createKey({ ...browser(owner.cookie, 'null'), 'sec-fetch-site': 'cross-site' });
    expect([sandboxed.status, sandboxed.body]).toEqual([403, errorEnvelope('CSRF_ORIGIN_MISMATCH')]);
    expect(await app.eventCount()).toBe(before);
    expect((await createKey({ ...browser(owner.cookie, 'null'), 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await createKey(browser(owner.cookie, OWN_ORIGIN))).status).toBe(201);
    // The origin the browser addressed (its Host) is the service's own too, e.g. a dashboard opened on 127.0.0.1:port.
    expect((await createKey(browser(owner.cookie, app.url))).status).toBe(201);
    // A Bearer session is not a browser credential: Origin does not matter, and a cookie beside it is not read.
    expect((await createKey({ origin: 'https://evil.example', cookie: 'paysplit_session=sess_unknown' }, owner.sessionToken)).status).toBe(201);
  });

  it('refuses a cookie-authenticated read naming a foreign Origin, and any call with an unknown cookie', async () => {
    const owner = await loggedIn('Read Co');
    const foreign = await app.request('GET', '/api/commerce/api-keys', { headers: browser(owner.cookie, 'https://evil.example') });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(errorEnvelope('CSRF_ORIGIN_MISMATCH'));
    expect((await app.request('GET', '/api/commerce/api-keys', { headers: browser(owner.cookie) })).status).toBe(200);
    const unknown = await app.request('GET', '/api/auth/me', { headers: browser('paysplit_session=sess_nope') });
    expect(unknown.status).toBe(401);
  });

  it('never reads an API key from the cookie, and a cookie session stays off API-key routes', async () => {
    const owner = await loggedIn('Key Cookie');
    const apiKey = await issueApiKey(app, owner.sessionToken);
    const keyInCookie = await app.request('GET', '/api/commerce/integration/splits', { headers: browser(`paysplit_session=${apiKey}`) });
    expect(keyInCookie.status).toBe(401);
    const sessionOnKeyRoute = await app.request('GET', '/api/commerce/integration/splits', { headers: browser(owner.cookie) });
    expect(sessionOnKeyRoute.status).toBe(403);
    expect(sessionOnKeyRoute.body).toEqual(errorEnvelope('CREDENTIAL_NOT_ALLOWED'));
  });

  it('logout by cookie revokes the session and clears the cookie', async () => {
    const owner = await loggedIn('Bye Co');
    const foreign = await app.request('POST', '/api/auth/logout', { headers: browser(owner.cookie, 'https://evil.example') });
    expect(foreign.status).toBe(403);
    expect((await app.request('GET', '/api/auth/me', { headers: browser(owner.cookie) })).status).toBe(200);
    const out = await app.request('POST', '/api/auth/logout', { headers: browser(owner.cookie) });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe('paysplit_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    expect((await app.request('GET', '/api/auth/me', { headers: browser(owner.cookie) })).status).toBe(401);
  });

  it('a contractor signing in by magic link gets the cookie and is a contractor', async () => {
    const sme = await signup(app, 'Link Staffing');
    const email = `contractor-${Math.random().toString(36).slice(2)}@example.test`;
    await createSubVendor(app, await issueApiKey(app, sme.sessionToken), { email });
    const link = (await outbox(app)).find((message) => message.to === email)!.link;
    const redeemed = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } });
    expect(redeemed.status).toBe(200);
    const me = await app.request('GET', '/api/auth/me', { headers: browser(sessionCookie(redeemed)) });
    expect(me.body.data).toMatchObject({ email, kind: 'contractor' });
  });

  it('no page of another origin can frame /dashboard', async () => {
    for (const path of ['/dashboard', '/dashboard/webhooks?x=1']) {
      const page = await app.request('GET', path);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect((await app.request('GET', '/health')).headers.get('x-frame-options')).toBeNull();
  });
});

describe('session cookie over https', () => {
  it('is Secure when PUBLIC_BASE_URL is https', async () => {
    const app = await startTestApp({ PUBLIC_BASE_URL: 'https://pay.example' });
    try {
      const created = await signup(app, 'Tls Co');
      const login = await app.request('POST', '/api/auth/login', { body: { email: created.email, password: 'correct horse battery' } });
      expect(login.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await app.close();
    }
  });
});
