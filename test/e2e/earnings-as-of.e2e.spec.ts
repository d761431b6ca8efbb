import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import { createCreator, createdSplit, creatorRow, Creator, dataOf, errorEnvelope, newIdempotencyKey, outbox, setupSplitWorld, SplitWorld } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A contractor's earnings `?asOf=` (issue 28 item 2): at each of several instants the answer given later
 * equals the one given then: balances from the ledger's contractor accounts (withdrawals, a reversal that
 * leaves something owed and its repayment included), transfers, reversals and withdrawals as they stood.
 */
describe('contractor earnings as of a past moment over HTTP', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'AsOf Staffing', enterprise: 'AsOf Globex' });
  });
  afterAll(async () => {
    await app.close();
  });

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const now = async () => dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
  async function paidRow(creator: Creator, amountCents: string) {
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('asof'),
      roster: [creatorRow(creator, amountCents, { earlyPayoutElected: true })],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await advance(1);
    return dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}`, { token: world.sme.apiKey }), 200);
  }
  async function signedIn(creator: Creator): Promise<Record<string, string>> {
    const link = (await outbox(app)).find((message) => message.to === creator.email)!.link;
    const redeemed = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } });
    return browser(sessionCookie(redeemed));
  }
  const earnings = async (headers: Record<string, string>, query = '') => dataOf(await app.request('GET', `/api/commerce/me/earnings${query}`, { headers }), 200);

  it('answers at each instant what it answered then', async () => {
    const creator = await createCreator(app, { fullName: 'Asa Asof' });
    const first = await paidRow(creator, '10000');
    const me = await signedIn(creator);
    /** What the earnings were at a moment strictly between two steps (the clock moves on both sides of it). */
    const seen: [string, unknown][] = [];
    const snapshot = async () => {
      await advance(1);
      const at = await now();
      seen.push([at, await earnings(me)]);
      await advance(1);
    };

    await snapshot(); // one transfer: 9850 available
    dataOf(await app.request('POST', '/api/commerce/me/withdrawals', { headers: me, body: { amountCents: '6000', currency: 'USD' } }), 201);
    await app.eventCount();
    await snapshot(); // withdrew 6000: 3850 available
    const reversed = dataOf(
      await app.request('POST', `/api/commerce/integration/splits/${first.id}/distributions/${first.distributions[0].id}/reversals`, {
        token: world.sme.apiKey,
        body: { amountCents: '9000', reason: 'Billed twice', refundFee: false, idempotencyKey: newIdempotencyKey('asof-rev') },
      }),
      201,
    );
    expect(reversed.amountCents).toBe('9000');
    await app.eventCount();
    await snapshot(); // 3850 from the balance, 5150 owed
    await paidRow(creator, '2000');
    await app.eventCount();
    await snapshot(); // the next credit repays what was owed first

    const states = seen.map(([, answer]) => (answer as { balances: unknown }).balances);
    expect(states[0]).toEqual([{ currency: 'USD', availableCents: '9850', owedCents: '0' }]);
    expect(states[1]).toEqual([{ currency: 'USD', availableCents: '3850', owedCents: '0' }]);
    expect(states[2]).toEqual([{ currency: 'USD', availableCents: '0', owedCents: '5150' }]);
    expect(new Set(states.map((s) => JSON.stringify(s))).size).toBe(4);

    for (const [at, answer] of seen) expect([at, await earnings(me, `?asOf=${at}`)]).toEqual([at, answer]);
    // Before anything: nothing; now: the live answer.
    const start = new Date(Date.parse(seen[0]![0]) - 3_600_000).toISOString();
    expect(await earnings(me, `?asOf=${start}`)).toEqual({ balances: [], transfers: [], withdrawals: [], reversals: [], wallet: expect.any(Object), pendingWallet: null });
    expect(await earnings(me, `?asOf=${await now()}`)).toEqual(await earnings(me));
  });

  it('refuses a bad asOf with 400', async () => {
    const creator = await createCreator(app, { fullName: 'Bad Asof' });
    await paidRow(creator, '1000');
    const me = await signedIn(creator);
    for (const query of ['?asOf=yesterday', '?asOf=2026-13-01T00:00:00Z']) {
      const refused = await app.request('GET', `/api/commerce/me/earnings${query}`, { headers: me });
      expect([query, refused.status, refused.body]).toEqual([query, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
  });
});
