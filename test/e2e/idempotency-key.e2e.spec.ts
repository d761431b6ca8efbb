import { replayLedger } from '../../src/ledger';
import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import { createCreator, createdSplit, creatorRow, Creator, dataOf, errorEnvelope, newIdempotencyKey, outbox, setupSplitWorld, SplitWorld } from '../support/split-fixtures';
import { createPlatform, sessionBody, SESSIONS } from '../support/payout-embed-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 23 item 6: the `Idempotency-Key` header on every POST that creates or moves money
 * (docs/api.md#idempotency). A retried withdrawal pays once and replays the first answer; the same key
 * with another body is 409 IDEMPOTENCY_KEY_REUSED and moves nothing; the OpenAPI document shows the
 * header on every money route.
 */
describe('Idempotency-Key over HTTP', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'Idem Staffing', enterprise: 'Idem Globex' });
  });
  afterAll(async () => {
    await app.close();
  });

  /** A contractor with `amountCents` less the 1.5% early-payout fee on its service balance, signed in by magic link. */
  async function contractorWith(fullName: string, amountCents: string): Promise<{ creator: Creator; me: Record<string, string> }> {
    const creator = await createCreator(app, { fullName });
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('idem'),
      roster: [creatorRow(creator, amountCents, { earlyPayoutElected: true })],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();
    const link = (await outbox(app)).find((message) => message.to === creator.email)!.link;
    const redeemed = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } });
    return { creator, me: browser(sessionCookie(redeemed)) };
  }
  const withdraw = (me: Record<string, string>, body: unknown, key?: string) =>
    app.request('POST', '/api/commerce/me/withdrawals', { headers: key === undefined ? me : { ...me, 'idempotency-key': key }, body });
  const earnings = async (me: Record<string, string>) => dataOf(await app.request('GET', '/api/commerce/me/earnings', { headers: me }), 200);
  const withdrawalPostings = async (userId: string) =>
    (await replayLedger(app.platform.events)).postings.filter((p) => p.kind === 'contractor_withdrawal' && JSON.stringify(p.entries).includes(userId));

  it('a withdrawal retried with the same key pays once and replays the first status and body', async () => {
    const { creator, me } = await contractorWith('Rita Retry', '10000'); // 9850 on the balance
    const key = 'withdraw-7f1c2a';
    const first = await withdraw(me, { amountCents: '6000', currency: 'USD' }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    await app.eventCount();
    const events = await app.eventCount();

    const retry = await withdraw(me, { currency: 'USD', amountCents: '6000' }, key); // same request, fields in another order
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await app.eventCount()).toBe(events);

    const after = await earnings(me);
    expect(after.balances).toEqual([{ currency: 'USD', availableCents: '3850', owedCents: '0' }]);
    expect(after.withdrawals).toHaveLength(1);
    expect(await withdrawalPostings(creator.userId)).toHaveLength(1);
  });

  it('the same key with another body is 409 IDEMPOTENCY_KEY_REUSED and moves nothing', async () => {
    const { creator, me } = await contractorWith('Rex Reuse', '10000');
    const key = 'withdraw-reused';
    dataOf(await withdraw(me, { amountCents: '1000', currency: 'USD' }, key), 201);
    await app.eventCount();
    const events = await app.eventCount();

    const other = await withdraw(me, { amountCents: '2000', currency: 'USD' }, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual(errorEnvelope('IDEMPOTENCY_KEY_REUSED'));
    expect(other.body.error.details).toEqual([{ field: 'Idempotency-Key', message: 'already used with a different body' }]);
    expect(await app.eventCount()).toBe(events);
    expect((await earnings(me)).balances).toEqual([{ currency: 'USD', availableCents: '8850', owedCents: '0' }]);
    expect(await withdrawalPostings(creator.userId)).toHaveLength(1);
  });

  it('concurrent requests with one key run once: the others replay its answer or get 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const { creator, me } = await contractorWith('Cora Concurrent', '10000');
    const answers = await Promise.all(Array.from({ length: 8 }, () => withdraw(me, { amountCents: '500', currency: 'USD' }, 'withdraw-concurrent')));
    const ran = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(ran).toHaveLength(1);
    for (const answer of answers.filter((a) => a !== ran[0])) {
      if (answer.status === 409) expect(answer.body).toEqual(errorEnvelope('IDEMPOTENCY_KEY_IN_USE'));
      else expect(answer.body).toEqual(ran[0]!.body);
    }
    await app.eventCount();
    expect((await earnings(me)).balances).toEqual([{ currency: 'USD', availableCents: '9350', owedCents: '0' }]);
    expect(await withdrawalPostings(creator.userId)).toHaveLength(1);
  });

  it('a refused request (4xx) keeps nothing: the key runs again once the cause is fixed', async () => {
    const { me } = await contractorWith('Fay Fixed', '1000'); // 985 on the balance
    const key = 'withdraw-after-refusal';
    const refused = await withdraw(me, { amountCents: '5000', currency: 'USD' }, key);
    expect(refused.status).toBe(422);
    const events = await app.eventCount();
    // The same request is refused again (it runs again), and moves nothing.
    expect((await withdraw(me, { amountCents: '5000', currency: 'USD' }, key)).status).toBe(422);
    expect(await app.eventCount()).toBe(events);
    expect((await withdraw(me, { amountCents: '900', currency: 'USD' }, key)).status).toBe(201);
  });

  it('keys are kept per company: another company (each contractor has its own) with the same key runs its own request', async () => {
    const a = await contractorWith('Ann Alpha', '1000');
    const b = await contractorWith('Ben Beta', '1000');
    const first = dataOf(await withdraw(a.me, { amountCents: '100', currency: 'USD' }, 'shared-key'), 201);
    const second = await withdraw(b.me, { amountCents: '100', currency: 'USD' }, 'shared-key');
    expect([second.status, second.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(second.body.data.id).not.toBe(first.id);
    await app.eventCount();
    expect((await earnings(b.me)).balances).toEqual([{ currency: 'USD', availableCents: '885', owedCents: '0' }]);
  });

  it('keeps a key 24 hours by the Clock: it replays until then, and is a new key after', async () => {
    const { me } = await contractorWith('Tim Timer', '10000');
    const key = 'withdraw-24h';
    const first = await withdraw(me, { amountCents: '100', currency: 'USD' }, key);
    expect(first.status).toBe(201);
    const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
    await advance(24 * 3600 - 1);
    const within = await withdraw(me, { amountCents: '100', currency: 'USD' }, key);
    expect([within.status, within.headers.get('idempotent-replayed'), within.body]).toEqual([201, 'true', first.body]);
    expect((await withdraw(me, { amountCents: '200', currency: 'USD' }, key)).status).toBe(409);
    await advance(1);
    const after = await withdraw(me, { amountCents: '200', currency: 'USD' }, key);
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(after.body.data.id).not.toBe(first.body.data.id);
  });

  it('refuses a malformed key with 400 and runs nothing', async () => {
    const { me } = await contractorWith('Mal Formed', '1000');
    const events = await app.eventCount();
    for (const key of ['x'.repeat(256), 'tab\tkey']) {
      const answer = await withdraw(me, { amountCents: '100', currency: 'USD' }, key);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(errorEnvelope('VALIDATION_FAILED'));
    }
    expect(await app.eventCount()).toBe(events);
  });

  it('a sandbox top-up retried with its key adds the money once', async () => {
    const platform = await createPlatform(app, 'Idem Top-ups', null);
    const topUp = () =>
      app.request('POST', '/api/sandbox/balance/top-up', {
        token: platform.sessionToken,
        headers: { 'idempotency-key': 'top-up-1' },
        body: { amountCents: '2500', currency: 'USD' },
      });
    const first = await topUp();
    const again = await topUp();
    expect([first.status, again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([201, 201, 'true', first.body]);
    const balance = dataOf(await app.request('GET', '/api/commerce/balance', { token: platform.sessionToken }), 200);
    expect(JSON.stringify(balance)).toContain('"availableCents":"2500"');
  });

  it('replays a Payout Embed create by header: one session, one reservation (the body idempotencyKey is optional beside it)', async () => {
    const platform = await createPlatform(app, 'Idem Prizes', '5000');
    const body = sessionBody({ amountCents: '700' });
    const create = () => app.request('POST', SESSIONS, { token: platform.apiKey, headers: { 'idempotency-key': 'pe-create-1' }, body });
    const first = await create();
    expect(first.status).toBe(201);
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const reservations = (await app.platform.events.readStream(`balance-${platform.companyId}`)).filter((e) => e.type === 'company_balance.reserved');
    expect(reservations.map((e) => (e.data as { sessionId: string }).sessionId)).toEqual([first.body.data.id]);
    // Cancel is keyed too: its retry replays the cancelled session and releases nothing twice.
    const cancel = () => app.request('POST', `${SESSIONS}/${first.body.data.id}/cancel`, { token: platform.apiKey, headers: { 'idempotency-key': 'pe-cancel-1' } });
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    const recancel = await cancel();
    expect([recancel.status, recancel.headers.get('idempotent-replayed'), recancel.body]).toEqual([200, 'true', cancelled.body]);
  });

  /**
   * Every POST under the commerce and sandbox-balance APIs either takes the header or is named here as
   * moving no money: a new money route without `@IdempotentRoute()` fails this test.
   */
  it('the OpenAPI document lists the Idempotency-Key header on every money POST, and only there', async () => {
    const NOT_MONEY = new Set([
      'POST /api/commerce/integration/splits/{id}/distributions/{distributionId}/repoint', // a state change decided on the Split (a repeat is refused: 400/409), no amount of its own
      'POST /api/commerce/integration/splits/{id}/distributions/{distributionId}/take-back', // the same: a second take-back is 409 DISTRIBUTION_NOT_FAILED
      'POST /api/commerce/members', // an invitation moves no money (issue 30)
      'POST /api/commerce/integration/payout-embed/sessions/{id}/confirm', // issue 30: a second member's confirmation; a repeat decides nothing, the money was reserved at create
      'POST /api/commerce/api-keys',
      'POST /api/commerce/business-profiles',
      'POST /api/commerce/integration/sub-vendors',
      'POST /api/commerce/integration/splits/{id}/cancel',
      'POST /api/commerce/splits/{id}/approve', // decides on the Split revision the enterprise reviewed (409 SPLIT_CHANGED_SINCE_REVIEW otherwise); funding moves no balance here
      'POST /api/commerce/splits/{id}/reject',
      'POST /api/commerce/webhooks/endpoints',
      'POST /api/commerce/webhooks/endpoints/{id}/test',
      'POST /api/commerce/webhooks/endpoints/{id}/recover',
      'POST /api/commerce/webhooks/deliveries/{id}/redeliver',
      'POST /api/commerce/webhooks/secret/rotate',
      'POST /api/commerce/payment-links',
      // Public, no company to keep a key under (the clientSecret / subscription id is the credential); a
      // card charge carries its own processor idempotency key (issue 23 item 3).
      'POST /api/commerce/checkout/orders/{orderId}/confirm',
      'POST /api/commerce/checkout/subscriptions/{subscriptionId}/cancel',
      // Issue 29: the merchant stops future renewals; nothing moves now, and a repeat answers the cancelled state.
      'POST /api/commerce/integration/checkout/subscriptions/{subscriptionId}/cancel',
      // Issue 29 item 9: forgot password, public like the other /api/auth routes (outside the prefixes walked
      // below); they move no money, a repeat sends at most 3 links an hour or meets a used-up token.
      'POST /api/auth/password/forgot',
      'POST /api/auth/password/reset',
      // Issue 29: a contractor's wallet: a code sent (limited to one a minute), then the code entered; moves no money
      // (a withdrawal names its wallet when it is requested).
      'POST /api/commerce/me/wallet',
      'POST /api/commerce/me/wallet/verify',
    ]);
    const MONEY = [
      'POST /api/commerce/me/withdrawals',
      'POST /api/commerce/integration/splits',
      'POST /api/commerce/integration/splits/{id}/distributions/{distributionId}/payout',
      'POST /api/commerce/splits/{id}/settle-margin',
      'POST /api/commerce/integration/checkout',
      // Refunds move money back to the buyer (issue 26).
      'POST /api/commerce/integration/checkout/orders/{orderId}/refunds',
      'POST /api/commerce/integration/payout-embed/sessions',
      'POST /api/commerce/integration/payout-embed/sessions/{id}/cancel',
      'POST /api/sandbox/balance/top-up',
      // Issue 27: an invoice paid from the balance, or by card through a collections order.
      'POST /api/commerce/invoices/{id}/payments',
      'POST /api/commerce/invoices/{id}/card-payments',
      // Issue 27: a parked bank transfer the enterprise claims pays its invoice (the rest credited to its balance).
      'POST /api/commerce/invoices/{id}/parked-transfers',
      // Issue 26: a row reversal takes money back from a contractor.
      'POST /api/commerce/integration/splits/{id}/distributions/{distributionId}/reversals',
      // Issue 30: a second member's confirmation is what starts the row's transfer / releases the margin.
      'POST /api/commerce/integration/splits/{id}/distributions/{distributionId}/payout/confirm',
      'POST /api/commerce/splits/{id}/settle-margin/confirm',
    ];
    const openapi = (await app.request('GET', '/docs/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
    const takesKey = new Map<string, boolean>();
    for (const [path, methods] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        takesKey.set(
          `${method.toUpperCase()} ${path}`,
          (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
        );
      }
    }
    for (const route of MONEY) expect([route, takesKey.get(route)]).toEqual([route, true]);
    const posts = [...takesKey.keys()].filter((route) => /^POST \/api\/(commerce|sandbox\/balance)\//.test(route));
    for (const route of posts) expect([route, takesKey.get(route) || NOT_MONEY.has(route)]).toEqual([route, true]);
    expect(
      [...takesKey]
        .filter(([, has]) => has)
        .map(([route]) => route)
        .sort(),
    ).toEqual([...MONEY].sort());
  });
});
