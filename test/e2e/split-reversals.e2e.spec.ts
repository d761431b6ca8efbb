import { TRANSFER_RETRY_HORIZON_DAYS } from '../../src/split/domain/row-transfer-schedule';
import { splitStreamId } from '../../src/split';
import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import { expectLedgerVerifyClean } from '../support/ledger-verify-cli';
import { SESSIONS, sessionBody } from '../support/payout-embed-fixtures';
import {
  createCreator,
  createdSplit,
  createSubVendor,
  creatorRow,
  Creator,
  RosterRow,
  dataOf,
  errorEnvelope,
  issueApiKey,
  newIdempotencyKey,
  outbox,
  setupSplitWorld,
  SplitWorld,
  subVendorRow,
  uniqueEmail,
} from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { jsonOf, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 26 items 3 and 4 over HTTP, each case ending with `ledger:verify` (the built CLI, on the app's own
 * data dir) clean: a row reversed before and after its contractor withdrew it (the receivable repaid by the
 * next credit), the fee given back with refundFee, an over-reversal refused, and rows that fail past the
 * retry horizon re-pointed or taken back so the Split settles. What a reversal or a take-back returns to the
 * SME is spendable: a Payout Embed session reserves exactly the `availableCents` the balance shows.
 */
describe('Split row reversals and rows that fail for good (issue 26)', () => {
  let app: TestApp;
  let world: SplitWorld;
  let payoutKey: string;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    app = await startTestApp({ ...DASHBOARD_ENV, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver();
    world = await setupSplitWorld(app, { sme: 'Reverse Staffing', enterprise: 'Reverse Globex' });
    payoutKey = await issueApiKey(app, world.sme.sessionToken, ['payout:write'], 'payouts');
    // The SME's receiver of the two issue-26 Split webhooks (docs/webhooks.md#9-event-catalogue).
    dataOf(
      await app.request('POST', '/api/commerce/webhooks/endpoints', {
        token: world.sme.sessionToken,
        body: { url: `${receiver.url}/split`, eventTypes: ['split.roster_entry.reversed', 'split.roster_entry.failed'] },
      }),
      201,
    );
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  /** The webhook bodies of `type` about row `rosterEntryId` (and matching `where`) the receiver got, once one arrived (10 s deadline). */
  async function deliveredFor(type: string, rosterEntryId: string, where: (data: Record<string, unknown>) => boolean = () => true) {
    const matching = () => receiver.requests.map(jsonOf).filter((b) => b.type === type && b.data.rosterEntryId === rosterEntryId && where(b.data));
    await receiver.waitFor(() => matching().length > 0, 10_000, `${type} for ${rosterEntryId}`);
    return matching();
  }

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const getSplit = async (id: string) => dataOf(await app.request('GET', `/api/commerce/integration/splits/${id}`, { token: world.sme.apiKey }), 200);
  const smeAvailable = async () =>
    (dataOf(await app.request('GET', '/api/commerce/balance', { token: world.sme.apiKey }), 200) as { currency: string; availableCents: string }[]).find(
      (b) => b.currency === 'USD',
    )?.availableCents ?? '0';
  const reverse = (splitId: string, rowId: string, body: Record<string, unknown>, token = world.sme.apiKey) =>
    app.request('POST', `/api/commerce/integration/splits/${splitId}/distributions/${rowId}/reversals`, { token, body });
  const expectLedgerClean = () => expectLedgerVerifyClean(app);
  const payoutEmbed = (amountCents: string) =>
    app.request('POST', SESSIONS, { token: payoutKey, headers: { 'idempotency-key': newIdempotencyKey('embed') }, body: sessionBody({ amountCents }) });
  /**
   * The SME's `availableCents` is exactly what a Payout Embed session may reserve: one cent more is refused
   * naming that very amount, the whole of it is reserved (then cancelled, so the balance is as before).
   */
  async function expectAvailableSpendable(): Promise<bigint> {
    await app.eventCount();
    const available = await smeAvailable();
    const over = await payoutEmbed((BigInt(available) + 1n).toString());
    expect({ status: over.status, code: over.body.error?.code, available: over.body.error?.details?.[0]?.availableCents }).toEqual({
      status: 422,
      code: 'PAYOUT_INSUFFICIENT_BALANCE',
      available,
    });
    const session = dataOf(await payoutEmbed(available), 201);
    expect(await smeAvailable()).toBe('0');
    dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: payoutKey }), 200);
    await app.eventCount();
    expect(await smeAvailable()).toBe(available);
    return BigInt(available);
  }

  /** A Split of one row to `roster`, approved and funded; instant rows are transferred at once. */
  async function fundedSplit(roster: RosterRow[]) {
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('rev'),
      roster,
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await advance(1);
    return getSplit(split.id);
  }
  async function signedIn(creator: Creator): Promise<Record<string, string>> {
    const link = (await outbox(app)).find((message) => message.to === creator.email)!.link;
    const redeemed = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } });
    return browser(sessionCookie(redeemed));
  }
  const earnings = async (headers: Record<string, string>) => dataOf(await app.request('GET', '/api/commerce/me/earnings', { headers }), 200);

  it('reverses part of a row before the contractor withdrew it, with its fee share: from the service balance to the SME', async () => {
    const creator = await createCreator(app, { fullName: 'Riley Reversed' });
    const split = await fundedSplit([creatorRow(creator, '10000', { earlyPayoutElected: true })]);
    const row = split.distributions[0];
    expect(row).toMatchObject({ status: 'COMPLETED', feeAmountCents: '150', netAmountCents: '9850', reversedAmountCents: '0', finalFailureAt: null });
    const before = BigInt(await smeAvailable());
    const beforeReversal = new Date().toISOString();

    const key = newIdempotencyKey('reversal');
    const body = { amountCents: '2500', reason: 'Hours billed twice', refundFee: true, idempotencyKey: key };
    const reversal = dataOf(await reverse(split.id, row.id, body), 201);
    // 150 x 2500 / 9850 = 38.07: the fee share is 38, rounded down.
    expect(reversal).toEqual({
      id: expect.stringMatching(/^rev_[0-9a-z]{26}$/),
      splitId: split.id,
      distributionId: row.id,
      amountCents: '2500',
      feeRefundedCents: '38',
      currency: 'USD',
      reason: 'Hours billed twice',
      createdAt: expect.any(String),
    });
    const replay = await reverse(split.id, row.id, body);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(reversal);
    const reused = await reverse(split.id, row.id, { ...body, amountCents: '2600' });
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual(errorEnvelope('IDEMPOTENCY_KEY_REUSED'));

    expect((await getSplit(split.id)).distributions[0].reversedAmountCents).toBe('2500');
    expect(BigInt(await smeAvailable()) - before).toBe(2538n);
    // What came back (with the fee share) is the SME's to spend: a Payout Embed session may reserve all of it.
    expect(await expectAvailableSpendable()).toBe(before + 2538n);
    const me = await signedIn(creator);
    const seen = await earnings(me);
    expect(seen.balances).toEqual([{ currency: 'USD', availableCents: '7350', owedCents: '0' }]);
    expect(seen.reversals).toEqual([
      {
        id: reversal.id,
        splitId: split.id,
        rosterEntryId: row.id,
        amountCents: '2500',
        fromBalanceCents: '2500',
        owedCents: '0',
        currency: 'USD',
        occurredAt: expect.any(String),
        smeCompanyName: 'Reverse Staffing',
      },
    ]);

    // History and as-of include it; the enterprise sees neither the reversal nor the row's reversed amount change anything it owes.
    const history = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}/history`, { token: world.sme.apiKey }), 200);
    expect(history.find((e: { type: string }) => e.type === 'split.roster_entry.reversed').data).toMatchObject({
      reversalId: reversal.id,
      amountCents: '2500',
      feeRefundedCents: '38',
    });
    const then = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}?asOf=${encodeURIComponent(beforeReversal)}`, { token: world.sme.apiKey }), 200);
    expect(then.distributions[0].reversedAmountCents).toBe('0');
    const enterpriseHistory = dataOf(await app.request('GET', `/api/commerce/splits/${split.id}/history`, { token: world.enterprise.sessionToken }), 200);
    expect(enterpriseHistory.map((e: { type: string }) => e.type)).not.toContain('split.roster_entry.reversed');
    // The SME's endpoint got the split.roster_entry.reversed webhook with its public payload.
    expect((await deliveredFor('split.roster_entry.reversed', row.id)).map((b) => b.data)).toEqual([
      { splitId: split.id, rosterEntryId: row.id, reversalId: reversal.id, amountCents: '2500' },
    ]);
    await expectLedgerClean();
  });

  it('refuses more than the net transfer less earlier reversals (422, nothing changes), and reversals by the enterprise (404)', async () => {
    const split = await fundedSplit([subVendorRow(world.walletVendor, '4000', { earlyPayoutElected: true })]);
    const row = split.distributions[0];
    dataOf(await reverse(split.id, row.id, { amountCents: '3000', reason: 'partial', idempotencyKey: newIdempotencyKey() }), 201);
    const over = await reverse(split.id, row.id, { amountCents: '941', reason: 'too much', idempotencyKey: newIdempotencyKey() });
    expect(over.status).toBe(422);
    expect(over.body).toEqual(errorEnvelope('REVERSAL_EXCEEDS_TRANSFERRED', [{ field: 'amountCents', message: 'at most 940', reversibleCents: '940' }]));
    expect((await getSplit(split.id)).distributions[0].reversedAmountCents).toBe('3000');
    const zero = await reverse(split.id, row.id, { amountCents: '0', reason: 'x', idempotencyKey: newIdempotencyKey() });
    expect(zero.status).toBe(400);
    expect(zero.body.error.code).toBe('REVERSAL_AMOUNT_INVALID');
    const byEnterprise = await reverse(split.id, row.id, { amountCents: '1', reason: 'x', idempotencyKey: newIdempotencyKey() }, world.enterprise.sessionToken);
    expect(byEnterprise.status).toBe(404);
    // The SME's dashboard session may reverse too.
    dataOf(await reverse(split.id, row.id, { amountCents: '940', reason: 'rest', idempotencyKey: newIdempotencyKey() }, world.sme.sessionToken), 201);
    expect((await getSplit(split.id)).distributions[0].reversedAmountCents).toBe('3940');
    await expectAvailableSpendable();
    await expectLedgerClean();
  });

  it('reverses a row the contractor already withdrew: what is missing is owed, and its next credit repays it first', async () => {
    const creator = await createCreator(app, { fullName: 'Wade Withdrawn' });
    const split = await fundedSplit([creatorRow(creator, '10000', { earlyPayoutElected: true })]);
    const me = await signedIn(creator);
    dataOf(await app.request('POST', '/api/commerce/me/withdrawals', { headers: me, body: { amountCents: '9000', currency: 'USD' } }), 201);
    await app.eventCount();

    dataOf(await reverse(split.id, split.distributions[0].id, { amountCents: '2500', reason: 'Wrong contractor', idempotencyKey: newIdempotencyKey() }), 201);
    await app.eventCount();
    const owing = await earnings(me);
    // 850 was still in the balance; 1650 had left for the wallet: owed.
    expect(owing.balances).toEqual([{ currency: 'USD', availableCents: '0', owedCents: '1650' }]);
    expect(owing.reversals[0]).toMatchObject({ amountCents: '2500', fromBalanceCents: '850', owedCents: '1650' });
    const refused = await app.request('POST', '/api/commerce/me/withdrawals', { headers: me, body: { amountCents: '1', currency: 'USD' } });
    expect(refused.status).toBe(422);

    // The next Split pays the same contractor 4000 (3940 net of the fee): 1650 repays what it owes first.
    await fundedSplit([creatorRow(creator, '4000', { earlyPayoutElected: true })]);
    const repaid = await earnings(me);
    expect(repaid.balances).toEqual([{ currency: 'USD', availableCents: '2290', owedCents: '0' }]);
    dataOf(await app.request('POST', '/api/commerce/me/withdrawals', { headers: me, body: { amountCents: '2290', currency: 'USD' } }), 201);
    await app.eventCount();
    await expectLedgerClean();
  });

  describe(`a row that keeps failing for ${TRANSFER_RETRY_HORIZON_DAYS} days`, () => {
    /** An instant row to a contractor whose transfers the sandbox rail always refuses. */
    async function failingSplit() {
      const failing = await createSubVendor(app, world.sme.apiKey, {
        email: uniqueEmail('broken').replace('@', '+fail-always@'),
        fullName: 'Fran Failing',
        walletEmail: uniqueEmail('broken-wallet'),
      });
      const split = await fundedSplit([subVendorRow(failing, '6000', { earlyPayoutElected: true }), subVendorRow(world.plainVendor, '1000')]);
      expect(split.distributions[0]).toMatchObject({ status: 'FAILED', finalFailureAt: null });
      // Retried after 1 min, 10 min, 1 h, then every 6 h, until the horizon: then FAILED for good.
      await advance((TRANSFER_RETRY_HORIZON_DAYS + 1) * 86_400);
      const given = await getSplit(split.id);
      expect(given.status).toBe('SETTLING');
      expect(given.distributions[0]).toMatchObject({ status: 'FAILED', finalFailureAt: expect.any(String) });
      expect(given.distributions[1]).toMatchObject({ status: 'COMPLETED' });
      const history = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}/history`, { token: world.sme.apiKey }), 200);
      expect(history.filter((e: { type: string }) => e.type === 'split.roster_entry.failed_for_good')).toHaveLength(1);
      // Nothing retries it any more (the Split's own stream; its invoice's reminders go on, issue 27).
      const splitEvents = async () => (await app.platform.events.readStream(splitStreamId(split.id))).length;
      const events = await splitEvents();
      await advance(7 * 86_400);
      expect(await splitEvents()).toBe(events);
      return given;
    }

    // The sandbox clock fires each of the ~120 retries on its way to the horizon: slower than the default 30 s.
    const HORIZON_TEST_MS = 300_000;

    it(
      'is re-pointed to another contractor of the roster; its transfer goes through and the Split settles',
      async () => {
        const split = await failingSplit();
        const row = split.distributions[0];
        // The SME is told the row failed for good: split.roster_entry.failed with final: true, once (the retries before said final: false).
        const finals = await deliveredFor('split.roster_entry.failed', row.id, (data) => data.final === true);
        expect(finals.map((b) => b.data)).toEqual([{ splitId: split.id, rosterEntryId: row.id, final: true }]);
        expect((await deliveredFor('split.roster_entry.failed', row.id, (data) => data.final === false)).length).toBeGreaterThan(0);
        const toSelf = await app.request('POST', `/api/commerce/integration/splits/${split.id}/distributions/${row.id}/repoint`, {
          token: world.sme.apiKey,
          body: { subVendorId: world.plainVendor.id },
        });
        expect(toSelf.status).toBe(400);
        expect(toSelf.body.error.code).toBe('REPOINT_CONTRACTOR_ALREADY_ON_SPLIT');
        const repointed = dataOf(
          await app.request('POST', `/api/commerce/integration/splits/${split.id}/distributions/${row.id}/repoint`, {
            token: world.sme.apiKey,
            body: { subVendorId: world.walletVendor.id },
          }),
          200,
        );
        expect(repointed.distributions[0]).toMatchObject({ subVendorId: world.walletVendor.id, finalFailureAt: null });
        await advance(1);
        const settled = await getSplit(split.id);
        expect(settled.status).toBe('SETTLED');
        expect(settled.distributions[0]).toMatchObject({ status: 'COMPLETED', subVendorId: world.walletVendor.id, netAmountCents: '5910' });
        await expectLedgerClean();
      },
      HORIZON_TEST_MS,
    );

    it(
      'is taken back to the SME balance; the Split settles',
      async () => {
        const split = await failingSplit();
        const before = BigInt(await smeAvailable());
        const notFailed = await app.request('POST', `/api/commerce/integration/splits/${split.id}/distributions/${split.distributions[1].id}/take-back`, {
          token: world.sme.apiKey,
        });
        expect(notFailed.status).toBe(409);
        expect(notFailed.body.error.code).toBe('DISTRIBUTION_NOT_FAILED');
        const takenBack = dataOf(
          await app.request('POST', `/api/commerce/integration/splits/${split.id}/distributions/${split.distributions[0].id}/take-back`, { token: world.sme.sessionToken }),
          200,
        );
        expect(takenBack.status).toBe('SETTLED');
        expect(takenBack.distributions[0].status).toBe('TAKEN_BACK');
        // The row's 6000 was owed to its contractor inside the SME's balance; now it is the SME's to spend.
        expect(BigInt(await smeAvailable()) - before).toBe(6000n);
        expect(await expectAvailableSpendable()).toBe(before + 6000n);
        await expectLedgerClean();
      },
      HORIZON_TEST_MS,
    );
  });
});
