import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import { createdSplit, dataOf, emailRow, errorEnvelope, newIdempotencyKey, outbox, setupSplitWorld, SplitWorld, uniqueEmail } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 29 defect 4 over HTTP: a contractor's own wallet (code to the wallet email, the wrong-code and resend
 * rules, refused input appends nothing), a change that leaves a withdrawal in flight where it was going, and its
 * upcoming rows with their payday (docs/earnings.md#the-contractors-own-wallet-issue-29).
 */
describe("a contractor's own wallet and upcoming earnings over HTTP (issue 29)", () => {
  let app: TestApp;
  let world: SplitWorld;
  const lee = uniqueEmail('lee');
  let me: Record<string, string>;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'Upcoming Staffing', enterprise: 'Upcoming Globex' });
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('upcoming'),
      roster: [emailRow(lee, '40000', { fullName: 'Lee Later' })],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    // Funding follows the approval in the worker: the payday is known once it ran.
    await app.eventCount();
    await app.request('POST', '/api/auth/magic-link', { body: { email: lee } });
    const link = (await outbox(app)).filter((m) => m.to === lee).pop()!.link;
    me = browser(sessionCookie(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } })));
  });
  afterAll(async () => {
    await app.close();
  });
  const post = (path: string, body: unknown) => app.request('POST', `/api/commerce/me/wallet${path}`, { headers: me, body });
  const codeFor = async (email: string) => /\b(\d{6})\b/.exec((await outbox(app)).filter((m) => m.to === email).pop()!.body)![1]!;

  it('lists an approved row not paid yet with its payday (funding + net terms)', async () => {
    const upcoming = dataOf(await app.request('GET', '/api/commerce/me/upcoming-earnings', { headers: me }), 200);
    expect(upcoming).toEqual([
      expect.objectContaining({
        smeCompanyName: 'Upcoming Staffing',
        amountCents: '40000',
        currency: 'USD',
        status: 'PENDING',
        earlyPayoutElected: false,
        paydayAt: expect.any(String),
      }),
    ]);
    const split = dataOf(await app.request('GET', `/api/commerce/splits/${upcoming[0].splitId}`, { token: world.sme.sessionToken }), 200);
    expect(upcoming[0].paydayAt).toBe(split.paydayAt);
  });

  it('refuses bad input, codes that are not right, and a second code within a minute, appending nothing for bad input', async () => {
    const events = await app.eventCount();
    for (const body of [{}, { walletEmail: 'not-an-email' }, { walletEmail: 'a@b.example', extra: 1 }]) {
      const refused = await post('', body);
      expect([body, refused.status, refused.body]).toEqual([body, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
    expect((await post('/verify', { code: '12345' })).status).toBe(400);
    const none = await post('/verify', { code: '123456' });
    expect([none.status, none.body]).toEqual([422, errorEnvelope('WALLET_CODE_EXPIRED')]);
    expect((await app.request('POST', '/api/commerce/me/wallet', { token: world.sme.apiKey, body: { walletEmail: 'a@b.example' } })).status).toBe(403);
    expect(await app.eventCount()).toBe(events);

    const wallet = uniqueEmail('lee-wallet');
    expect(dataOf(await post('', { walletEmail: wallet }), 202)).toEqual({ walletEmail: wallet, codeExpiresAt: expect.any(String) });
    const again = await post('', { walletEmail: wallet });
    expect([again.status, again.body]).toEqual([409, errorEnvelope('WALLET_CODE_LIMIT')]);
    const code = await codeFor(wallet);
    const wrong = await post('/verify', { code: code === '999999' ? '000000' : '999999' });
    expect([wrong.status, wrong.body.error.details]).toEqual([422, [{ field: 'code', message: 'wrong code', attemptsLeft: 4 }]]);
    expect(dataOf(await post('/verify', { code }), 200)).toEqual({ walletEmail: wallet, verifiedAt: expect.any(String) });
    // The account's own address hears of the change (a session taken over cannot move earnings silently).
    expect((await outbox(app)).filter((m) => m.to === lee).pop()).toMatchObject({
      subject: 'Your Paysplit earnings now go to a new wallet',
      body: expect.stringContaining(wallet),
    });
    const earnings = dataOf(await app.request('GET', '/api/commerce/me/earnings', { headers: me }), 200);
    expect([earnings.wallet, earnings.pendingWallet]).toEqual([{ email: wallet, active: true, verified: true, source: 'own' }, null]);
  });
});
