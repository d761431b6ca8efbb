import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import { createPlatform, Platform, SESSIONS, sessionBody } from '../support/payout-embed-fixtures';
import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The dashboard's Payouts area uses the Payout Embed sessions API with the company's session (no API key in a browser). */
describe('Payout Embed sessions by session over HTTP', () => {
  let app: TestApp;
  let platform: Platform;
  let cookie: Record<string, string>;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
    platform = await createPlatform(app, 'Dash Prizes', '10000');
    const me = dataOf(await app.request('GET', '/api/auth/me', { token: platform.sessionToken }), 200);
    const login = await app.request('POST', '/api/auth/login', { body: { email: me.email, password: 'correct horse battery' } });
    cookie = browser(sessionCookie(login));
  });
  afterAll(async () => {
    await app.close();
  });

  const balance = async () => dataOf(await app.request('GET', '/api/commerce/balance', { token: platform.sessionToken }), 200)[0];

  it('creates, lists, reads and cancels a session with the company session (Bearer or cookie); the reservation follows', async () => {
    const created = await app.request('POST', SESSIONS, { headers: cookie, body: sessionBody({ amountCents: '2500' }) });
    expect(created.status).toBe(201);
    const session = created.body.data;
    expect(session).toMatchObject({ status: 'created', amountCents: '2500', currency: 'USD', embedUrl: expect.stringContaining(`/embed/payouts/${session.id}#t=`) });
    expect(await balance()).toMatchObject({ availableCents: '7500', reservedCents: '2500' });

    expect(dataOf(await app.request('GET', SESSIONS, { token: platform.sessionToken }), 200).map((s: any) => s.id)).toEqual([session.id]);
    expect(dataOf(await app.request('GET', `${SESSIONS}?status=created`, { headers: cookie }), 200).map((s: any) => s.id)).toEqual([session.id]);
    expect(dataOf(await app.request('GET', `${SESSIONS}/${session.id}`, { headers: cookie }), 200)).toEqual(session);
    // Same answer as the API key gets.
    expect(dataOf(await app.request('GET', `${SESSIONS}/${session.id}`, { token: platform.apiKey }), 200)).toEqual(session);

    const cancelled = dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { headers: cookie }), 200);
    expect(cancelled.status).toBe('cancelled');
    expect(await balance()).toMatchObject({ availableCents: '10000', reservedCents: '0' });
  });

  it('refuses a cookie write from another origin, bad bodies, a short balance and other companies, appending nothing', async () => {
    const before = await app.eventCount();
    const foreign = await app.request('POST', SESSIONS, { headers: browser(cookie.cookie!, 'https://evil.example'), body: sessionBody() });
    expect([foreign.status, foreign.body]).toEqual([403, errorEnvelope('CSRF_ORIGIN_MISMATCH')]);
    for (const body of [sessionBody({ amountCents: '-1' }), sessionBody({ recipientEmail: 'nope' }), { ...sessionBody(), extra: 1 }]) {
      const refused = await app.request('POST', SESSIONS, { token: platform.sessionToken, body });
      expect([refused.status, refused.body]).toEqual([400, errorEnvelope('VALIDATION_FAILED')]);
    }
    const short = await app.request('POST', SESSIONS, { token: platform.sessionToken, body: sessionBody({ amountCents: '10001' }) });
    expect([short.status, short.body]).toEqual([422, errorEnvelope('PAYOUT_INSUFFICIENT_BALANCE')]);
    expect(await app.eventCount()).toBe(before);

    const mine = dataOf(await app.request('POST', SESSIONS, { token: platform.sessionToken, body: sessionBody({ amountCents: '100' }) }), 201);
    const other = await createPlatform(app, 'Other Prizes', null);
    for (const [method, path] of [
      ['GET', `${SESSIONS}/${mine.id}`],
      ['POST', `${SESSIONS}/${mine.id}/cancel`],
    ] as const) {
      const response = await app.request(method, path, { token: other.sessionToken });
      expect([path, response.status, response.body]).toEqual([path, 404, errorEnvelope('PAYOUT_EMBED_SESSION_NOT_FOUND')]);
    }
    expect(dataOf(await app.request('GET', SESSIONS, { token: other.sessionToken }), 200)).toEqual([]);
    expect((await app.request('GET', SESSIONS)).status).toBe(401);
  });
});
