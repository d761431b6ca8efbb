import { replayLedger, verifyLedger } from '../../src/ledger';
import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import { createCreator, createdSplit, creatorRow, Creator, dataOf, errorEnvelope, newIdempotencyKey, outbox, setupSplitWorld, SplitWorld } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A contractor signed in by magic link sees its service balance and transfers and withdraws to its
 * wallet; the withdrawal is posted in the ledger and ledger:verify's invariants hold (docs/earnings.md).
 */
describe('contractor earnings and withdrawals over HTTP', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'Earn Staffing', enterprise: 'Earn Globex' });
  });
  afterAll(async () => {
    await app.close();
  });

  /** A settled, instantly paid row of `amountCents` to the creator (1.5% early-payout fee: 10000 nets 9850). */
  async function paidRow(creator: Creator, amountCents: string) {
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('earn'),
      roster: [creatorRow(creator, amountCents, { earlyPayoutElected: true })],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();
    return split;
  }
  /** The creator's browser session: the cookie set by redeeming its magic link. */
  async function signedIn(creator: Creator): Promise<Record<string, string>> {
    const link = (await outbox(app)).find((message) => message.to === creator.email)!.link;
    const redeemed = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } });
    return browser(sessionCookie(redeemed));
  }
  const earnings = async (headers: Record<string, string>) => dataOf(await app.request('GET', '/api/commerce/me/earnings', { headers }), 200);
  const withdraw = (headers: Record<string, string>, body: unknown) => app.request('POST', '/api/commerce/me/withdrawals', { headers, body });
  const verified = async () => verifyLedger(...(Object.values(await replayLedger(app.platform.events)) as [never, never]));

  it('shows the balance and transfers, withdraws to the wallet and posts it in the ledger', async () => {
    const creator = await createCreator(app, { fullName: 'Wendy Withdraw' });
    const split = await paidRow(creator, '10000');
    const me = await signedIn(creator);

    const before = await earnings(me);
    expect(before).toEqual({
      balances: [{ currency: 'USD', availableCents: '9850', owedCents: '0' }],
      transfers: [
        {
          id: expect.any(String),
          splitId: split.id,
          rosterEntryId: split.distributions[0].id,
          amountCents: '9850',
          currency: 'USD',
          occurredAt: expect.any(String),
          smeCompanyName: 'Earn Staffing',
        },
      ],
      withdrawals: [],
      reversals: [],
      wallet: { email: creator.walletEmail, active: true, verified: true, source: 'creator_profile' },
      pendingWallet: null,
    });

    const created = await withdraw(me, { amountCents: '6000', currency: 'USD' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.stringMatching(/^po_/), amountCents: '6000', currency: 'USD', status: 'requested', requestedAt: expect.any(String) });
    await app.eventCount();

    const after = await earnings(me);
    expect(after.balances).toEqual([{ currency: 'USD', availableCents: '3850', owedCents: '0' }]);
    expect(after.withdrawals).toEqual([{ ...created.body.data, status: 'paid' }]);

    const { postings } = await replayLedger(app.platform.events);
    const mine = postings.filter((p) => 'payoutId' in p && p.payoutId === created.body.data.id);
    const user = creator.userId;
    expect(mine.map((p) => [p.kind, p.entries])).toEqual([
      [
        'contractor_withdrawal',
        [
          { account: `contractor_balance:${creator.paymentProfileId}`, debit: '6000', credit: '0' },
          { account: `contractor_in_transit:${user}`, debit: '0', credit: '6000' },
        ],
      ],
      [
        'contractor_withdrawal_paid',
        [
          { account: `contractor_in_transit:${user}`, debit: '6000', credit: '0' },
          { account: `contractor_wallet:${user}`, debit: '0', credit: '6000' },
        ],
      ],
    ]);
    const report = await verified();
    expect(report.violations).toEqual([]);
    expect(report.withdrawalsInTransit).toBe(0);
  });

  it('refuses more than the balance, bad bodies, a foreign origin and a missing wallet with nothing appended', async () => {
    const creator = await createCreator(app, { fullName: 'Ned Nope' });
    await paidRow(creator, '10000');
    const me = await signedIn(creator);
    const unverified = await createCreator(app, { fullName: 'Una Unverified', walletVerified: false });
    const unverifiedMe = await signedIn(unverified);

    const events = await app.eventCount();
    const short = await withdraw(me, { amountCents: '9851', currency: 'USD' });
    expect([short.status, short.body]).toEqual([422, errorEnvelope('WITHDRAWAL_INSUFFICIENT_BALANCE')]);
    expect(short.body.error.details).toEqual([{ field: 'amountCents', message: 'at most 9850', availableCents: '9850' }]);
    const otherCurrency = await withdraw(me, { amountCents: '1', currency: 'EUR' });
    expect([otherCurrency.status, otherCurrency.body]).toEqual([422, errorEnvelope('WITHDRAWAL_INSUFFICIENT_BALANCE')]);
    for (const body of [
      {},
      { amountCents: '0', currency: 'USD' },
      { amountCents: 100, currency: 'USD' },
      { amountCents: '1.5', currency: 'USD' },
      { amountCents: '1', currency: 'usd' },
      { amountCents: '1', currency: 'USD', to: 'x' },
    ]) {
      const refused = await withdraw(me, body);
      expect([body, refused.status, refused.body]).toEqual([body, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
    const foreign = await withdraw(browser(me.cookie!, 'https://evil.example'), { amountCents: '1', currency: 'USD' });
    expect([foreign.status, foreign.body]).toEqual([403, errorEnvelope('CSRF_ORIGIN_MISMATCH')]);
    const noWallet = await withdraw(unverifiedMe, { amountCents: '1', currency: 'USD' });
    expect([noWallet.status, noWallet.body]).toEqual([422, errorEnvelope('WITHDRAWAL_WALLET_NOT_READY')]);
    expect((await app.request('POST', '/api/commerce/me/withdrawals', { body: { amountCents: '1', currency: 'USD' } })).status).toBe(401);
    expect((await app.request('GET', '/api/commerce/me/earnings', { token: world.sme.apiKey })).status).toBe(403);
    expect(await app.eventCount()).toBe(events);

    // A company that never received a transfer has nothing to withdraw, and sees no one else's.
    expect(await earnings({ authorization: `Bearer ${world.sme.sessionToken}` })).toEqual({
      balances: [],
      transfers: [],
      withdrawals: [],
      reversals: [],
      wallet: null,
      pendingWallet: null,
    });
  });

  it('gives a failed withdrawal back to the balance, reversed in the ledger', async () => {
    const creator = await createCreator(app, { fullName: 'Fay Fail', walletEmail: `fay+fail-always-${Date.now()}@wallet.example` });
    await paidRow(creator, '10000');
    const me = await signedIn(creator);
    const created = dataOf(await withdraw(me, { amountCents: '9850', currency: 'USD' }), 201);
    await app.eventCount();
    const after = await earnings(me);
    expect(after.withdrawals).toEqual([{ ...created, status: 'failed' }]);
    expect(after.balances).toEqual([{ currency: 'USD', availableCents: '9850', owedCents: '0' }]);
    const { postings } = await replayLedger(app.platform.events);
    expect(postings.filter((p) => 'payoutId' in p && p.payoutId === created.id).map((p) => p.kind)).toEqual(['contractor_withdrawal', 'contractor_withdrawal_reversed']);
    expect((await verified()).violations).toEqual([]);
  });

  it('lets concurrent withdrawals take at most the balance', async () => {
    const creator = await createCreator(app, { fullName: 'Connie Current' });
    await paidRow(creator, '10000');
    const me = await signedIn(creator);
    const answers = await Promise.all(Array.from({ length: 6 }, () => withdraw(me, { amountCents: '3000', currency: 'USD' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 422, 422, 422]);
    await app.eventCount();
    expect((await earnings(me)).balances).toEqual([{ currency: 'USD', availableCents: '850', owedCents: '0' }]);
    expect((await verified()).violations).toEqual([]);
  });
});
