import {
  createCreator,
  createdSplit,
  createEnterprise,
  createSme,
  Creator,
  creatorRow,
  dataOf,
  Enterprise,
  errorEnvelope,
  issueApiKey,
  newIdempotencyKey,
  Sme,
} from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { answer, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The events API and the recovery of missed events (issue 28 item 5, docs/webhooks.md#10-the-events-api):
 * what a company's webhooks carry, listed with the same ids and bodies as the deliveries, walked page by
 * page while new events arrive; recovery with `until`, a dry-run count, and replay of the events an
 * endpoint never got because it was disabled or not subscribed then.
 */
describe('events API and recovery of missed events over HTTP', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let enterprise: Enterprise;
  let creator: Creator;

  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '500' });
    receiver = await startWebhookReceiver(answer(200));
    [enterprise, creator] = await Promise.all([createEnterprise(app, 'Globex'), createCreator(app, { fullName: 'Casey Creator' })]);
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  const ENDPOINTS = '/api/commerce/webhooks/endpoints';
  const APPROVED = 'split.leg_a.approved';
  const REJECTED = 'split.leg_a.rejected';
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const now = async () => dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const settle = async () => {
    await advance(1);
    await sleep(150);
  };
  const events = (token: string, query = '') => app.request('GET', `/api/commerce/events${query}`, { token });
  const listEvents = async (token: string, query = '') => dataOf(await events(token, query), 200) as any[];
  const pendingSplit = (sme: Sme) =>
    createdSplit(app, sme.apiKey, {
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('events'),
      roster: [creatorRow(creator, '25000')],
    });
  const rejectedSplit = async (sme: Sme) => {
    const split = await pendingSplit(sme);
    const body = { revision: split.revision, reason: 'Hours do not match' };
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/reject`, { token: enterprise.sessionToken, body }), 200);
    return split;
  };
  const approvedSplit = async (sme: Sme) => {
    const split = await pendingSplit(sme);
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: enterprise.sessionToken, body: { revision: split.revision } }), 200);
    return split;
  };
  const endpoint = async (sme: Sme, path: string, eventTypes: string[]) =>
    dataOf(await app.request('POST', ENDPOINTS, { token: sme.sessionToken, body: { url: `${receiver.url}${path}`, eventTypes } }), 201);
  const recover = (sme: Sme, endpointId: string, body: unknown) => app.request('POST', `${ENDPOINTS}/${endpointId}/recover`, { token: sme.sessionToken, body });
  const receivedOn = (path: string) => receiver.requests.filter((request) => request.path === path).map((request) => JSON.parse(request.rawBody.toString('utf8')));

  it('lists the events the webhooks carry with the delivered ids and bodies, to an API key of any scope; filters by type and time; retrieves one; other companies see none', async () => {
    const sme = await createSme(app, 'Evented');
    const readKey = await issueApiKey(app, sme.sessionToken, ['payout:read'], 'reader');
    await endpoint(sme, '/evented', [APPROVED]);
    const t0 = await now();
    const split = await approvedSplit(sme);
    await advance(60);
    const t1 = await now();
    const rejected = await rejectedSplit(sme);
    await settle();

    const listed = await listEvents(readKey, '?limit=100');
    // Oldest first; each exactly the body of a delivery (approval first, the rejection last; funding may add events between).
    expect(listed[0]).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
      type: APPROVED,
      createdAt: expect.any(String),
      data: { splitId: split.id, legAPayoutId: expect.any(String) },
    });
    expect(listed.at(-1)).toEqual({ id: expect.any(String), type: REJECTED, createdAt: expect.any(String), data: { splitId: rejected.id, legAPayoutId: expect.any(String) } });
    expect(receivedOn('/evented')).toContainEqual(listed[0]);
    expect(new Set(listed.map((event) => event.id)).size).toBe(listed.length);
    for (const [earlier, later] of listed.slice(0, -1).map((event, i) => [event, listed[i + 1]])) expect(earlier.createdAt <= later.createdAt).toBe(true);

    // The same with a session; filters.
    expect(await listEvents(sme.sessionToken, '?limit=100')).toEqual(listed);
    expect(await listEvents(readKey, `?type=${REJECTED}`)).toEqual([listed.at(-1)]);
    expect(await listEvents(readKey, `?type=${APPROVED}&to=${t1}`)).toEqual([listed[0]]);
    expect((await listEvents(readKey, `?from=${t1}`)).map((event) => event.id)).toContain(listed.at(-1).id);
    expect((await listEvents(readKey, `?from=${t1}`)).map((event) => event.id)).not.toContain(listed[0].id);
    expect(await listEvents(readKey, `?from=${t0}&limit=1`)).toEqual([listed[0]]);
    expect(await listEvents(readKey, `?after=${listed[0].id}&type=${REJECTED}`)).toEqual([listed.at(-1)]);

    // One event; another company sees none of them.
    expect(dataOf(await app.request('GET', `/api/commerce/events/${listed[0].id}`, { token: readKey }), 200)).toEqual(listed[0]);
    const other = await createSme(app, 'Nosy');
    expect(await listEvents(other.apiKey)).toEqual([]);
    const foreign = await app.request('GET', `/api/commerce/events/${listed[0].id}`, { token: other.apiKey });
    expect([foreign.status, foreign.body]).toEqual([404, errorEnvelope('WEBHOOK_EVENT_NOT_FOUND')]);
    const cursorOfOther = await events(other.apiKey, `?after=${listed[0].id}`);
    expect([cursorOfOther.status, cursorOfOther.body]).toEqual([400, errorEnvelope('VALIDATION_FAILED')]);
  });

  it('a page walk returns every event exactly once while new events are appended', async () => {
    const sme = await createSme(app, 'Walker');
    for (let i = 0; i < 5; i += 1) await rejectedSplit(sme);
    const seen: string[] = [];
    let appended = 0;
    let after = '';
    for (;;) {
      const page = await listEvents(sme.apiKey, `?limit=2${after ? `&after=${after}` : ''}`);
      seen.push(...page.map((event) => event.id));
      // New events arrive between every two pages, for the first three.
      if (appended < 3) {
        await rejectedSplit(sme);
        appended += 1;
      }
      if (page.length < 2) break;
      after = page[page.length - 1].id;
    }
    const all = await listEvents(sme.apiKey, '?limit=100');
    expect(all).toHaveLength(8);
    expect(seen).toEqual(all.map((event) => event.id));
  });

  it('recovery replays the events an endpoint missed (disabled, or not subscribed then), after a dry-run count; until bounds the window; a second call finds nothing', async () => {
    const sme = await createSme(app, 'Recovering');
    const off = await endpoint(sme, '/off', [REJECTED]);
    const narrow = await endpoint(sme, '/narrow', [APPROVED]);
    dataOf(await app.request('PATCH', `${ENDPOINTS}/${off.id}`, { token: sme.sessionToken, body: { enabled: false } }), 200);
    const since = await now();
    await rejectedSplit(sme);
    await rejectedSplit(sme);
    await settle();
    const missedEvents = await listEvents(sme.apiKey, `?type=${REJECTED}`);
    expect(missedEvents).toHaveLength(2);
    expect(receivedOn('/off')).toEqual([]);
    expect(receivedOn('/narrow')).toEqual([]);

    // Disabled: a dry run counts, a real call is refused.
    expect(dataOf(await recover(sme, off.id, { since, replayMissed: true, dryRun: true }), 200)).toEqual({ recovered: 0, remaining: 2, failed: 0, missed: 2, dryRun: true });
    expect((await recover(sme, off.id, { since, replayMissed: true })).status).toBe(409);
    dataOf(await app.request('PATCH', `${ENDPOINTS}/${off.id}`, { token: sme.sessionToken, body: { enabled: true } }), 200);
    dataOf(await app.request('PATCH', `${ENDPOINTS}/${narrow.id}`, { token: sme.sessionToken, body: { eventTypes: [APPROVED, REJECTED] } }), 200);

    // until before the events: nothing in the window. Without replayMissed: only failed deliveries count.
    expect(dataOf(await recover(sme, off.id, { since, until: since, replayMissed: true, dryRun: true }), 200)).toMatchObject({ missed: 0, remaining: 0 });
    expect(dataOf(await recover(sme, off.id, { since, dryRun: true }), 200)).toEqual({ recovered: 0, remaining: 0, failed: 0, missed: null, dryRun: true });
    // The dry runs sent nothing.
    await settle();
    expect(receivedOn('/off')).toEqual([]);
    expect(receivedOn('/narrow')).toEqual([]);

    for (const [target, path] of [
      [off, '/off'],
      [narrow, '/narrow'],
    ] as const) {
      expect(dataOf(await recover(sme, target.id, { since, replayMissed: true }), 200)).toEqual({ recovered: 2, remaining: 0, failed: 0, missed: 2, dryRun: false });
      await settle();
      // The bodies the events API lists, with the same evt_ ids, delivered once each.
      expect(receivedOn(path)).toEqual(missedEvents);
      const logged = dataOf(await app.request('GET', `${ENDPOINTS}/${target.id}/deliveries`, { token: sme.sessionToken }), 200) as any[];
      expect(logged.map((delivery) => [delivery.eventId, delivery.status]).sort()).toEqual(missedEvents.map((event) => [event.id, 'succeeded']).sort());
      expect(dataOf(await recover(sme, target.id, { since, replayMissed: true }), 200)).toEqual({ recovered: 0, remaining: 0, failed: 0, missed: 0, dryRun: false });
    }
  });

  it('refuses bad queries and bad recover bodies with 400 and no credential with 401', async () => {
    const sme = await createSme(app, 'Strict Events');
    const hook = await endpoint(sme, '/strict', [REJECTED]);
    for (const query of [
      '?type=nope',
      '?type=webhook.test',
      '?from=yesterday',
      '?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
      '?limit=0',
      '?limit=101',
      '?after=evt_unknown',
      '?colour=red',
    ]) {
      const refused = await events(sme.apiKey, query);
      expect([query, refused.status, refused.body]).toEqual([query, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
    for (const body of [
      { since: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' },
      { since: '2026-11-01T00:00:00Z', until: 'later' },
      { since: '2026-11-01T00:00:00Z', replayMissed: 'yes' },
      { since: '2026-11-01T00:00:00Z', dryRun: 1 },
    ]) {
      const refused = await recover(sme, hook.id, body);
      expect([body, refused.status, refused.body]).toEqual([body, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
    expect((await events('')).status).toBe(401);
    expect((await app.request('GET', '/api/commerce/events/evt_x')).status).toBe(401);
  });
});
