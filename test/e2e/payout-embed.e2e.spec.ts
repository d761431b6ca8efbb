import { expectPageHeaders } from '../support/page-headers';
import { createHmac } from 'node:crypto';
import { replayLedger } from '../../src/ledger/application/ledger-verifier';
import { sessionOf } from '../../src/ledger/domain/posting';
import { deterministicId, sha256Hex } from '../../src/platform/ids/ids';
import { companyBalanceDecider } from '../../src/payout-embed/domain/company-balance.decider';
import { payoutEmbedSessionDecider } from '../../src/payout-embed/domain/payout-embed-session.decider';
import { verifyWebhook } from '../../src/webhooks/domain/webhook-signature';
import { startTestApp, TestApp } from '../support/test-app';
import { createCompany, dataOf, errorEnvelope, issueApiKey, ISO_TIMESTAMP, PAYOUT_ID } from '../support/split-fixtures';
import { jsonOf, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import {
  balanceOf,
  createdSession,
  createPlatform,
  createSession,
  embedCall,
  embedOf,
  expectBooks,
  latestCode,
  Platform,
  SESSION_ID,
  sessionBody,
  SESSIONS,
  topUp,
} from '../support/payout-embed-fixtures';

/** The checkout fields of GET /api/commerce/balance (issue 26), for a company that never sold through Checkout. */
const NO_CHECKOUT_MONEY = { checkoutBalanceCents: '0', checkoutPayoutsInTransitCents: '0', checkoutPaidOutCents: '0' };

const SIX_TYPES = ['created', 'claimed', 'completed', 'failed', 'expired', 'cancelled'].map((s) => `payout_embed.session.${s}`);

describe('Payout Embed over HTTP', () => {
  let app: TestApp;
  let platform: Platform;
  let receiver: WebhookReceiver;
  let secret: string;
  let available = 100_000n;

  const streamTypes = async (streamId: string) => (await app.platform.events.readStream(streamId)).map((e) => e.type);
  const get = async (id: string, token = platform.apiKey) => dataOf(await app.request('GET', `${SESSIONS}/${id}`, { token }), 200);
  const sandboxNow = async (): Promise<string> => dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now;
  /** The request as the controller hands it to the create handler (defaults applied), whose hash the reservation carries. */
  const requestOf = (body: ReturnType<typeof sessionBody>) => ({
    recipientEmail: body.recipientEmail,
    recipientName: body.recipientName,
    amountCents: body.amountCents,
    currency: body.currency,
    description: body.description,
    idempotencyKey: (body as { idempotencyKey?: string }).idempotencyKey ?? null,
    expiresInSeconds: 604_800,
    allowedOrigins: body.allowedOrigins,
    returnUrl: body.returnUrl,
  });
  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const books = (availableCents: bigint, reservedCents = 0n) => expectBooks(app, platform, { availableCents: availableCents.toString(), reservedCents: reservedCents.toString() });

  /** Claims a session through the page's API the way the page does: send a code, read it from the outbox, claim. */
  async function claim(session: any) {
    dataOf(await embedCall(app, session, 'POST', '/code'), 200);
    const code = await latestCode(app, session.recipientEmail);
    return dataOf(await embedCall(app, session, 'POST', '/claim', { code }), 200);
  }

  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver();
    platform = await createPlatform(app);
    dataOf(await app.request('POST', '/api/commerce/webhooks/endpoints', { token: platform.sessionToken, body: { url: `${receiver.url}/hooks`, eventTypes: SIX_TYPES } }), 201);
    secret = dataOf(await app.request('GET', '/api/commerce/webhooks/secret', { token: platform.sessionToken }), 200).secret;
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  describe('balance', () => {
    it('shows available and reserved per currency to an API key of any scope and to the session', async () => {
      await books(available);
      const otherKey = await issueApiKey(app, platform.sessionToken, ['checkout:write'], 'shop');
      expect(dataOf(await app.request('GET', '/api/commerce/balance', { token: otherKey }), 200)).toEqual([
        { currency: 'USD', availableCents: '100000', reservedCents: '0', owedToContractorsCents: '0', marginHeldCents: '0', reservedForFeesCents: '0', ...NO_CHECKOUT_MONEY },
      ]);
      expect(dataOf(await app.request('GET', '/api/commerce/balance', { token: platform.sessionToken }), 200)).toEqual([
        { currency: 'USD', availableCents: '100000', reservedCents: '0', owedToContractorsCents: '0', marginHeldCents: '0', reservedForFeesCents: '0', ...NO_CHECKOUT_MONEY },
      ]);
      expect((await app.request('GET', '/api/commerce/balance')).status).toBe(401);
    });

    it('tops up by session only, keeping currencies apart', async () => {
      const other = await createPlatform(app, 'Euro Co', null);
      expect(await topUp(app, other.sessionToken, '700', 'EUR')).toMatchObject({ currency: 'EUR', amountCents: '700' });
      expect(dataOf(await app.request('GET', '/api/commerce/balance', { token: other.apiKey }), 200)).toEqual([
        { currency: 'EUR', availableCents: '700', reservedCents: '0', owedToContractorsCents: '0', marginHeldCents: '0', reservedForFeesCents: '0', ...NO_CHECKOUT_MONEY },
      ]);
      const byKey = await app.request('POST', '/api/sandbox/balance/top-up', { token: other.apiKey, body: { amountCents: '1', currency: 'EUR' } });
      expect(byKey.status).toBe(403);
      expect(byKey.body).toEqual(errorEnvelope('CREDENTIAL_NOT_ALLOWED'));
    });
  });

  describe('lifecycle', () => {
    it('creates, claims with the emailed code, names a wallet and completes; the reservation is paid to the wallet', async () => {
      const response = await createSession(app, platform.apiKey, sessionBody({ idempotencyKey: 'happy-1' }));
      expect(response.status).toBe(201);
      const session = response.body.data;
      expect(session).toEqual({
        id: expect.stringMatching(SESSION_ID),
        status: 'created',
        amountCents: '2500',
        currency: 'USD',
        recipientEmail: 'ann@example.com',
        recipientName: 'Ann Lee',
        description: 'Contest prize',
        expiresAt: expect.stringMatching(ISO_TIMESTAMP),
        embedUrl: expect.stringMatching(new RegExp(`/embed/payouts/${session.id}#t=[A-Za-z0-9_-]{43}$`)),
        allowedOrigins: ['https://platform.example'],
        returnUrl: 'https://platform.example/done',
        payoutId: null,
        failureReason: null,
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
        updatedAt: expect.stringMatching(ISO_TIMESTAMP),
        // Issue 30: no two-person policy, so nothing waits for a second member.
        awaitingConfirmation: false,
        startedBy: null,
        confirmedBy: null,
      });
      expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBe(604_800_000);
      available -= 2500n;
      await books(available, 2500n);

      // The token is never stored: not in the log, not in the read model.
      const { token } = embedOf(session);
      const log = JSON.stringify(await app.platform.events.readStream(`pes-${session.id}`));
      expect(log).not.toContain(token);

      const page = dataOf(await embedCall(app, session, 'GET'), 200);
      expect(page).toMatchObject({ id: session.id, status: 'created', amountCents: '2500', currency: 'USD', recipientEmailHint: 'a***@example.com', codeSent: false });
      expect(page).not.toHaveProperty('recipientEmail');

      const claimed = await claim(session);
      expect(claimed).toMatchObject({ status: 'claimed', payoutInProgress: false });
      const code = await latestCode(app, 'ann@example.com');
      expect(JSON.stringify(await app.platform.events.readStream(`pes-${session.id}`))).not.toContain(`"${code}"`);
      // The claim answers from the session's stream; the list's read model is the worker's: read it once caught up.
      await app.eventCount();
      expect((await get(session.id)).status).toBe('claimed');

      const started = dataOf(await embedCall(app, session, 'POST', '/wallet', { walletEmail: 'Ann@Wallet.example' }), 200);
      expect(started).toMatchObject({ status: 'claimed', payoutInProgress: true, walletEmail: 'ann@wallet.example' });
      await app.eventCount();
      const done = await get(session.id);
      expect(done).toMatchObject({ status: 'completed', payoutId: expect.stringMatching(PAYOUT_ID), failureReason: null });
      expect(dataOf(await embedCall(app, session, 'GET'), 200)).toMatchObject({ status: 'completed' });
      await books(available);
      const { postings } = await replayLedger(app.platform.events);
      expect(postings.filter((p) => sessionOf(p) === session.id).map((p) => p.kind)).toEqual(['payout_reserve', 'payout_paid']);
      expect(postings.find((p) => p.kind === 'payout_paid' && sessionOf(p) === session.id)!.entries).toContainEqual({
        account: 'recipient_wallet:ann@wallet.example',
        debit: '0',
        credit: '2500',
      });

      // Cancel after completion is a conflict and changes nothing.
      const before = await app.eventCount();
      const cancel = await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey });
      expect(cancel.status).toBe(409);
      expect(cancel.body).toEqual(errorEnvelope('PAYOUT_EMBED_NOT_CANCELLABLE'));
      expect(await app.eventCount()).toBe(before);
    });

    it('fails the payout for a +fail wallet and returns the funds', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '1500', recipientEmail: 'bo@example.com' });
      await books(available - 1500n, 1500n);
      await claim(session);
      dataOf(await embedCall(app, session, 'POST', '/wallet', { walletEmail: 'bo+fail@wallet.example' }), 200);
      await app.eventCount();
      expect(await get(session.id)).toMatchObject({ status: 'failed', payoutId: expect.stringMatching(PAYOUT_ID), failureReason: expect.stringContaining('+fail') });
      await books(available);
      const again = await embedCall(app, session, 'POST', '/wallet', { walletEmail: 'bo@wallet.example' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual(errorEnvelope('PAYOUT_EMBED_NOT_AWAITING_WALLET'));
    });

    it('sends nothing for a live session whose reservation was released (data from before issue 23): the session fails with PAYOUT_EMBED_RESERVATION_NOT_HELD', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '1700', recipientEmail: 'lee@example.com' });
      // What the old race left behind: the session live, its reservation released under it.
      await app.platform.aggregates.handle(
        `balance-${platform.companyId}`,
        companyBalanceDecider,
        { type: 'Release', data: { sessionId: session.id, reason: 'abandoned' }, metadata: { now: await sandboxNow(), actor: 'test' } },
        { actor: 'test', correlationId: 'old-race' },
      );
      await books(available);
      await claim(session);
      dataOf(await embedCall(app, session, 'POST', '/wallet', { walletEmail: 'lee@wallet.example' }), 200);
      await app.eventCount();
      expect(await get(session.id)).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^PAYOUT_EMBED_RESERVATION_NOT_HELD: /) });
      const balanceEvents = await app.platform.events.readStream(`balance-${platform.companyId}`);
      expect(balanceEvents.filter((e) => (e.data as { sessionId?: string }).sessionId === session.id).map((e) => e.type)).toEqual([
        'company_balance.reserved',
        'company_balance.reservation_released',
      ]);
      await books(available);
      const { postings } = await replayLedger(app.platform.events);
      expect(postings.filter((p) => sessionOf(p) === session.id).map((p) => p.kind)).toEqual(['payout_reserve', 'payout_release']);
    });

    it('expires an unclaimed session at expiresAt by the durable timer and returns the funds', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '999', expiresInSeconds: 900 });
      await books(available - 999n, 999n);
      await advance(899);
      expect((await get(session.id)).status).toBe('created');
      await advance(1);
      expect((await get(session.id)).status).toBe('expired');
      await books(available);
      const code = await embedCall(app, session, 'POST', '/code');
      expect(code.status).toBe(409);
      expect(code.body).toEqual(errorEnvelope('PAYOUT_EMBED_NOT_CLAIMABLE'));
    });

    it('cancels while created and returns the funds; cancelling again changes nothing', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '4000' });
      await books(available - 4000n, 4000n);
      const cancelled = dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200);
      expect(cancelled).toMatchObject({ id: session.id, status: 'cancelled' });
      // The answer comes after the release: the balance is already back.
      expect(await balanceOf(app, platform.apiKey)).toEqual({ availableCents: available.toString(), reservedCents: '0', owedToContractorsCents: '0' });
      await books(available);
      const before = await app.eventCount();
      expect(dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200).status).toBe('cancelled');
      expect(await app.eventCount()).toBe(before);
    });

    it('refuses a session the balance does not cover with 422 and appends nothing', async () => {
      const before = await app.eventCount();
      const response = await createSession(app, platform.apiKey, sessionBody({ amountCents: (available + 1n).toString() }));
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorEnvelope('PAYOUT_INSUFFICIENT_BALANCE'));
      expect(await app.eventCount()).toBe(before);
      await books(available);
    });
  });

  describe('idempotency and concurrency', () => {
    it('makes one session and one reservation of 50 concurrent identical creates', async () => {
      const body = sessionBody({ idempotencyKey: 'burst-50', amountCents: '100' });
      const responses = await Promise.all(Array.from({ length: 50 }, () => createSession(app, platform.apiKey, body)));
      expect(responses.map((r) => r.status).sort((a, b) => a - b)).toEqual([...Array(49).fill(200), 201]);
      expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
      expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
      const id = responses[0]!.body.data.id;
      const reservations = (await app.platform.events.readStream(`balance-${platform.companyId}`)).filter(
        (e) => e.type === 'company_balance.reserved' && (e.data as { sessionId: string }).sessionId === id,
      );
      expect(reservations).toHaveLength(1);
      expect(await streamTypes(`pes-${id}`)).toEqual(['payout_embed.session.created']);
      available -= 100n;
      await books(available, 100n);
      dataOf(await app.request('POST', `${SESSIONS}/${id}/cancel`, { token: platform.apiKey }), 200);
      available += 100n;
      await books(available);
    });

    it('replays with 200 + Idempotent-Replayed, and refuses the same key with another body (409)', async () => {
      const body = sessionBody({ idempotencyKey: 'replay-1', amountCents: '10' });
      const first = await createSession(app, platform.apiKey, body);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const replay = await createSession(app, platform.apiKey, body);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data).toEqual(first.body.data);
      const before = await app.eventCount();
      const reused = await createSession(app, platform.apiKey, { ...body, amountCents: '11' });
      expect(reused.status).toBe(409);
      expect(reused.body).toEqual(errorEnvelope('IDEMPOTENCY_KEY_REUSED'));
      expect(await app.eventCount()).toBe(before);
      dataOf(await app.request('POST', `${SESSIONS}/${first.body.data.id}/cancel`, { token: platform.apiKey }), 200);
      await books(available);
    });

    it('claims once out of 20 concurrent claims with the right code', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '50', recipientEmail: 'cy@example.com' });
      dataOf(await embedCall(app, session, 'POST', '/code'), 200);
      const code = await latestCode(app, 'cy@example.com');
      const responses = await Promise.all(Array.from({ length: 20 }, () => embedCall(app, session, 'POST', '/claim', { code })));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 409).every((r) => r.body.error.code === 'PAYOUT_EMBED_NOT_CLAIMABLE')).toBe(true);
      expect((await streamTypes(`pes-${session.id}`)).filter((t) => t === 'payout_embed.session.claimed')).toHaveLength(1);
      dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200);
      await books(available);
    });

    it('locks claims for 15 minutes after 5 wrong codes; even the right code is refused until then', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '60', recipientEmail: 'di@example.com' });
      dataOf(await embedCall(app, session, 'POST', '/code'), 200);
      const code = await latestCode(app, 'di@example.com');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 4; attempt++) {
        const response = await embedCall(app, session, 'POST', '/claim', { code: wrong });
        expect(response.status).toBe(422);
        expect(response.body).toEqual(errorEnvelope('PAYOUT_EMBED_CODE_INVALID', [expect.objectContaining({ field: 'code', attemptsLeft: 5 - attempt })]));
      }
      const fifth = await embedCall(app, session, 'POST', '/claim', { code: wrong });
      expect(fifth.status).toBe(409);
      expect(fifth.body).toEqual(errorEnvelope('PAYOUT_EMBED_CLAIM_LOCKED'));
      const sixth = await embedCall(app, session, 'POST', '/claim', { code });
      expect(sixth.status).toBe(409);
      expect(sixth.body.error.code).toBe('PAYOUT_EMBED_CLAIM_LOCKED');
      expect(dataOf(await embedCall(app, session, 'GET'), 200).lockedUntil).toEqual(expect.stringMatching(ISO_TIMESTAMP));
      expect(await streamTypes(`pes-${session.id}`)).not.toContain('payout_embed.session.claimed');
      // After the lock, a new code works.
      await advance(15 * 60);
      expect(await claim(session)).toMatchObject({ status: 'claimed' });
      dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200);
      await books(available);
    });

    it('limits resends to one a minute', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '70' });
      dataOf(await embedCall(app, session, 'POST', '/code'), 200);
      const again = await embedCall(app, session, 'POST', '/code');
      expect(again.status).toBe(409);
      expect(again.body).toEqual(errorEnvelope('PAYOUT_EMBED_CODE_LIMIT'));
      dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200);
    });
  });

  it('releases a reservation whose session was never written (a create that died half-way) after 5 minutes', async () => {
    const key = 'died-half-way';
    const body = sessionBody({ idempotencyKey: key, amountCents: '321' });
    const sessionId = deterministicId('pes', platform.companyId, key);
    // The first of create's two appends, as the handler makes it, and then nothing: the process died.
    await app.platform.aggregates.handle(
      `balance-${platform.companyId}`,
      companyBalanceDecider,
      {
        type: 'Reserve',
        data: { companyId: platform.companyId, sessionId, currency: 'USD', amountCents: '321', requestHash: sha256Hex(JSON.stringify(requestOf(body))) },
        metadata: { now: await sandboxNow(), actor: 'test' },
      },
      { actor: 'test', correlationId: 'crash' },
    );
    await books(available - 321n, 321n);
    await advance(299);
    await books(available - 321n, 321n);
    await advance(1);
    await books(available);
    const { postings } = await replayLedger(app.platform.events);
    expect(postings.filter((p) => sessionOf(p) === sessionId).map((p) => [p.kind, p.memo])).toEqual([
      ['payout_reserve', expect.any(String)],
      ['payout_release', expect.stringContaining('abandoned')],
    ]);
    // The key cannot start a session with money that went back.
    const before = await app.eventCount();
    const retry = await createSession(app, platform.apiKey, body);
    expect(retry.status).toBe(409);
    expect(retry.body).toEqual(errorEnvelope('PAYOUT_EMBED_RESERVATION_ABANDONED'));
    expect(await app.eventCount()).toBe(before);
  });

  it('a create retried with the same key whose session write lands after the abandoned-reservation timer fired starts no session (issue 23)', async () => {
    const key = 'retried-at-the-timer';
    const body = sessionBody({ idempotencyKey: key, amountCents: '432' });
    const sessionId = deterministicId('pes', platform.companyId, key);
    const requestHash = sha256Hex(JSON.stringify(requestOf(body)));
    const context = { actor: 'test', correlationId: 'race' };
    const reserve = {
      type: 'Reserve',
      data: { companyId: platform.companyId, sessionId, currency: 'USD', amountCents: '432', requestHash },
      metadata: { now: await sandboxNow(), actor: context.actor },
    } as const;
    // The first attempt reserved and died; the retry's own Reserve finds the reservation held and decides nothing.
    await app.platform.aggregates.handle(`balance-${platform.companyId}`, companyBalanceDecider, reserve, context);
    expect((await app.platform.aggregates.handle(`balance-${platform.companyId}`, companyBalanceDecider, reserve, context)).events).toEqual([]);
    // Now the timer fires (the sandbox clock passes 5 minutes) before the retry writes its session.
    await advance(300);
    await books(available);
    const now = await sandboxNow();
    const write = app.platform.aggregates.handle(
      `pes-${sessionId}`,
      payoutEmbedSessionDecider,
      {
        type: 'CreateSession',
        data: {
          sessionId,
          companyId: platform.companyId,
          amountCents: '432',
          currency: 'USD',
          recipientEmail: body.recipientEmail,
          recipientName: body.recipientName,
          description: body.description,
          idempotencyKey: key,
          requestHash,
          tokenHash: 'token-hash',
          allowedOrigins: body.allowedOrigins,
          returnUrl: body.returnUrl,
          payoutId: deterministicId('po', 'payout-embed', sessionId),
          createdAt: now,
          expiresAt: new Date(Date.parse(now) + 3600_000).toISOString(),
        },
        metadata: { now, actor: context.actor },
      },
      context,
    );
    await expect(write).rejects.toMatchObject({ code: 'PAYOUT_EMBED_RESERVATION_ABANDONED' });
    expect(await streamTypes(`pes-${sessionId}`)).toEqual(['payout_embed.session.abandoned']);
    expect((await app.request('GET', `${SESSIONS}/${sessionId}`, { token: platform.apiKey })).status).toBe(404);
    await books(available);
  });

  describe('read, list, ownership', () => {
    it('lists newest first with a status filter and pagination meta; another company sees 404', async () => {
      const lister = await createPlatform(app, 'Lister Co', '1000');
      const a = await createdSession(app, lister.apiKey, { amountCents: '10' });
      const b = await createdSession(app, lister.apiKey, { amountCents: '20' });
      const c = await createdSession(app, lister.apiKey, { amountCents: '30' });
      dataOf(await app.request('POST', `${SESSIONS}/${b.id}/cancel`, { token: lister.apiKey }), 200);
      const all = await app.request('GET', `${SESSIONS}?limit=2`, { token: lister.apiKey });
      expect(all.status).toBe(200);
      expect(all.body.meta).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
      expect(all.body.data.map((s: any) => s.id)).toEqual([c.id, b.id]);
      const page2 = await app.request('GET', `${SESSIONS}?limit=2&page=2`, { token: lister.apiKey });
      expect(page2.body.data.map((s: any) => s.id)).toEqual([a.id]);
      const created = await app.request('GET', `${SESSIONS}?status=created`, { token: lister.apiKey });
      expect(created.body.data.map((s: any) => s.id)).toEqual([c.id, a.id]);
      expect(created.body.meta.total).toBe(2);
      expect((await app.request('GET', `${SESSIONS}?status=cancelled`, { token: lister.apiKey })).body.data.map((s: any) => s.id)).toEqual([b.id]);

      const before = await app.eventCount();
      const foreignGet = await app.request('GET', `${SESSIONS}/${a.id}`, { token: platform.apiKey });
      expect(foreignGet.status).toBe(404);
      expect(foreignGet.body).toEqual(errorEnvelope('PAYOUT_EMBED_SESSION_NOT_FOUND'));
      expect((await app.request('POST', `${SESSIONS}/${a.id}/cancel`, { token: platform.apiKey })).status).toBe(404);
      expect((await app.request('GET', SESSIONS, { token: platform.apiKey })).body.data.map((s: any) => s.id)).not.toContain(a.id);
      expect(await app.eventCount()).toBe(before);
    });

    it('guards the API with payout:write', async () => {
      const company = await createCompany(app, 'No Scope');
      const splitKey = await issueApiKey(app, company.sessionToken, ['split:write']);
      const response = await createSession(app, splitKey, sessionBody());
      expect(response.status).toBe(403);
      expect(response.body).toEqual(errorEnvelope('MISSING_SCOPE'));
      // A session of the company may use the API too (the dashboard): test/e2e/dashboard-payouts.e2e.spec.ts.
      expect((await app.request('GET', SESSIONS, { token: company.sessionToken })).status).toBe(200);
    });

    it('answers 404 to a wrong embed token and 401 without one', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '5' });
      expect((await embedCall(app, session, 'GET', '', undefined, 'A'.repeat(43))).status).toBe(404);
      expect((await app.request('GET', `/api/embed/payouts/${session.id}`)).status).toBe(401);
      dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200);
    });

    it('serves the page with frame-ancestors of the allowed origins, no-referrer, and none when there are none', async () => {
      const framed = await createdSession(app, platform.apiKey, { amountCents: '5', allowedOrigins: ['https://a.example', 'https://b.example:8443'] });
      const page = await app.request('GET', embedOf(framed).path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expectPageHeaders(page.headers, 'https://a.example https://b.example:8443');
      const unframed = await createdSession(app, platform.apiKey, { amountCents: '5', allowedOrigins: undefined });
      const plain = await app.request('GET', embedOf(unframed).path);
      expectPageHeaders(plain.headers, "'none'");
      expect((await app.request('GET', '/embed/payouts/pes_00000000000000000000000000')).status).toBe(404);
      for (const s of [framed, unframed]) dataOf(await app.request('POST', `${SESSIONS}/${s.id}/cancel`, { token: platform.apiKey }), 200);
      await books(available);
    });
  });

  it('documents every new call in OpenAPI with request and response schemas', async () => {
    const openapi = (await app.request('GET', '/docs/openapi.json')).body;
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        '/api/commerce/balance',
        '/api/sandbox/balance/top-up',
        SESSIONS,
        `${SESSIONS}/{id}`,
        `${SESSIONS}/{id}/cancel`,
        '/embed/payouts/{id}',
        '/api/embed/payouts/{id}',
        '/api/embed/payouts/{id}/code',
        '/api/embed/payouts/{id}/claim',
        '/api/embed/payouts/{id}/wallet',
      ]),
    );
    const schemas = openapi.components.schemas;
    expect(schemas.CreatePayoutEmbedSessionRequestDto.required).toEqual(['recipientEmail', 'amountCents', 'currency']);
    expect(Object.keys(schemas.CreatePayoutEmbedSessionRequestDto.properties)).toEqual(
      expect.arrayContaining(['expiresInSeconds', 'allowedOrigins', 'returnUrl', 'idempotencyKey']),
    );
    // Created (201) and an idempotent replay (200) answer the same {data: session}.
    for (const status of ['201', '200'])
      expect(openapi.paths[SESSIONS].post.responses[status].content['application/json'].schema.properties.data.$ref).toBe('#/components/schemas/SessionViewDto');
    expect(openapi.paths[SESSIONS].post.responses['409'].content['application/json'].schema.properties.error.allOf[1].properties.code.enum).toEqual(
      expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED', 'PAYOUT_EMBED_RESERVATION_ABANDONED']),
    );
    expect(Object.keys(schemas.SessionViewDto.properties)).toEqual(expect.arrayContaining(['embedUrl', 'payoutId', 'failureReason', 'expiresAt']));
    expect(openapi.paths['/api/commerce/balance'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/BalanceResponseDto');
  });

  describe('bad input gets a 4xx envelope and appends nothing', () => {
    it.each([
      ['bad email', { recipientEmail: 'not-an-email' }, 'recipientEmail'],
      ['zero amount', { amountCents: '0' }, 'amountCents'],
      ['numeric amount', { amountCents: 2500 }, 'amountCents'],
      ['decimal amount', { amountCents: '25.00' }, 'amountCents'],
      ['negative amount', { amountCents: '-1' }, 'amountCents'],
      ['leading zero', { amountCents: '0100' }, 'amountCents'],
      ['lower-case currency', { currency: 'usd' }, 'currency'],
      ['unknown currency', { currency: 'XYZ' }, 'currency'],
      ['expiry too short', { expiresInSeconds: 899 }, 'expiresInSeconds'],
      ['expiry too long', { expiresInSeconds: 2_592_001 }, 'expiresInSeconds'],
      ['fractional expiry', { expiresInSeconds: 1000.5 }, 'expiresInSeconds'],
      ['http origin', { allowedOrigins: ['http://platform.example'] }, 'allowedOrigins'],
      ['origin with a path', { allowedOrigins: ['https://platform.example/page'] }, 'allowedOrigins'],
      ['eleven origins', { allowedOrigins: Array.from({ length: 11 }, (_, i) => `https://o${i}.example`) }, 'allowedOrigins'],
      ['http returnUrl', { returnUrl: 'http://platform.example/done' }, 'returnUrl'],
      ['relative returnUrl', { returnUrl: '/done' }, 'returnUrl'],
      ['empty idempotencyKey', { idempotencyKey: '' }, 'idempotencyKey'],
      ['unknown field', { tip: '1' }, 'tip'],
    ])('create: %s', async (_label, overrides, field) => {
      const before = await app.eventCount();
      const response = await createSession(app, platform.apiKey, sessionBody(overrides));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorEnvelope('VALIDATION_FAILED'));
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await app.eventCount()).toBe(before);
    });

    it('every other new endpoint', async () => {
      const session = await createdSession(app, platform.apiKey, { amountCents: '5' });
      const before = await app.eventCount();
      const cases: [string, string, Record<string, unknown> | undefined, string | undefined, number][] = [
        ['GET', `${SESSIONS}?status=done`, undefined, platform.apiKey, 400],
        ['GET', `${SESSIONS}?limit=0`, undefined, platform.apiKey, 400],
        ['GET', `${SESSIONS}/nope`, undefined, platform.apiKey, 404],
        ['POST', `${SESSIONS}/nope/cancel`, undefined, platform.apiKey, 404],
        ['POST', '/api/sandbox/balance/top-up', { amountCents: '0', currency: 'USD' }, platform.sessionToken, 400],
        ['POST', '/api/sandbox/balance/top-up', { amountCents: '5', currency: 'dollars' }, platform.sessionToken, 400],
        ['POST', '/api/sandbox/balance/top-up', { amountCents: '5' }, platform.sessionToken, 400],
        ['POST', `/api/embed/payouts/${session.id}/claim`, { code: '12345' }, embedOf(session).token, 400],
        ['POST', `/api/embed/payouts/${session.id}/claim`, { code: 123456 }, embedOf(session).token, 400],
        ['POST', `/api/embed/payouts/${session.id}/claim`, { code: '123456' }, embedOf(session).token, 422],
        ['POST', `/api/embed/payouts/${session.id}/wallet`, { walletEmail: 'nope' }, embedOf(session).token, 400],
        ['POST', `/api/embed/payouts/${session.id}/wallet`, { walletEmail: 'w@x.example' }, embedOf(session).token, 409],
        ['POST', `/api/embed/payouts/${session.id}/code`, undefined, 'wrong-token-wrong-token', 404],
      ];
      for (const [method, path, body, token, status] of cases) {
        const response = await app.request(method, path, { token, body });
        expect([method, path, response.status]).toEqual([method, path, status]);
        expect(response.body).toEqual({ error: { code: expect.any(String), message: expect.any(String), details: expect.any(Array) } });
      }
      expect(await app.eventCount()).toBe(before);
      dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200);
    });
  });

  it('delivers all six lifecycle events, signed, to an endpoint subscribed to them', async () => {
    await app.eventCount();
    await receiver.waitFor((requests) => SIX_TYPES.every((type) => requests.some((r) => jsonOf(r).type === type)), 10_000, 'all six payout_embed.session.* types');
    const nowSeconds = Math.floor(Date.parse(dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now) / 1000);
    for (const type of SIX_TYPES) {
      const request = receiver.requests.find((r) => jsonOf(r).type === type)!;
      const headers = request.headers as Record<string, string>;
      expect(createHmac('sha256', secret).update(`${headers['x-paysplit-timestamp']}.`).update(request.rawBody).digest('hex')).toBe(headers['x-paysplit-signature']);
      expect(verifyWebhook(secret, headers, request.rawBody, 10 * 86_400, nowSeconds).ok).toBe(true);
      const body = jsonOf(request);
      expect(body.data).toEqual(
        expect.objectContaining({ sessionId: expect.stringMatching(SESSION_ID), status: type.split('.').pop(), amountCents: expect.any(String), currency: 'USD' }),
      );
      if (type.endsWith('completed') || type.endsWith('failed')) expect(body.data.payoutId).toMatch(PAYOUT_ID);
      else expect(body.data).not.toHaveProperty('payoutId');
      if (type.endsWith('failed')) expect(body.data.failureReason).toContain('+fail');
      else expect(body.data).not.toHaveProperty('failureReason');
    }
  });
});
