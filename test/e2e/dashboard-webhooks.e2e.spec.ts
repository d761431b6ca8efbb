import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../src/webhooks/domain/webhook-event-types';
import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { signup, startTestApp, TestApp } from '../support/test-app';
import { answer, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/** The dashboard's webhook views: a filtered delivery log with what each attempt sent, recovery after an outage, the catalogue. */
describe('webhook delivery log, recovery and event catalogue over HTTP', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // The default 10 s timeout: at 500 ms an attempt under CI load could time out, leaving a redelivery pending for its retry.
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver(answer(500));
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  const ENDPOINTS = '/api/commerce/webhooks/endpoints';
  const now = async () => dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();
  const deliveries = (token: string, endpointId: string, query = '') => app.request('GET', `${ENDPOINTS}/${endpointId}/deliveries${query}`, { token });
  const list = async (token: string, endpointId: string, query = '') => dataOf(await deliveries(token, endpointId, query), 200) as any[];

  it('filters by status, event type and time, newest first; each attempt shows the request sent; recover redelivers the failed ones since a time', async () => {
    const sme = await signup(app, 'Hooked');
    const endpoint = dataOf(await app.request('POST', ENDPOINTS, { token: sme.sessionToken, body: { url: `${receiver.url}/hooks`, eventTypes: ['split.leg_a.approved'] } }), 201);
    const test = () => app.request('POST', `${ENDPOINTS}/${endpoint.id}/test`, { token: sme.sessionToken });

    const t0 = await now();
    expect((await test()).status).toBe(200);
    await advance(3600); // the two probation retries fail too: the first delivery is failed
    const t1 = await now();
    expect((await test()).status).toBe(200);
    await advance(3600);
    await app.eventCount();

    const all = await list(sme.sessionToken, endpoint.id);
    expect(all.map((d) => [d.status, d.attempts.length])).toEqual([
      ['failed', 3],
      ['failed', 3],
    ]);
    const [second, first] = all;
    expect(first.createdAt < second.createdAt).toBe(true);

    // What every attempt sent: the body the receiver got byte for byte, and the headers it could check.
    const received = receiver.requests.filter((request) => request.headers['x-paysplit-delivery-id'] === first.id);
    expect(received).toHaveLength(3);
    const attempt = first.attempts[0];
    expect(attempt).toEqual({
      attempt: 1,
      attemptedAt: expect.any(String),
      succeeded: false,
      responseStatus: 500,
      latencyMs: expect.any(Number),
      error: 'HTTP 500',
      requestHeaders: {
        'content-type': 'application/json',
        'user-agent': 'Paysplit-Webhooks/1.0',
        'X-Paysplit-Event': 'webhook.test',
        'X-Paysplit-Delivery-Id': first.id,
        'X-Paysplit-Timestamp': received[0]!.headers['x-paysplit-timestamp'],
        'X-Paysplit-Signature': received[0]!.headers['x-paysplit-signature'],
      },
      requestBody: received[0]!.rawBody.toString('utf8'),
    });
    expect(attempt.attemptedAt >= first.createdAt).toBe(true);
    for (const [name, value] of Object.entries(attempt.requestHeaders)) expect(received[0]!.headers[name.toLowerCase()]).toBe(value);
    // Each attempt shows its own signature: a retry signs again with its own timestamp.
    expect(first.attempts.map((a: any) => a.requestHeaders['X-Paysplit-Signature'])).toEqual(received.map((r) => r.headers['x-paysplit-signature']));

    const ids = (rows: any[]) => rows.map((d) => d.id);
    expect(ids(await list(sme.sessionToken, endpoint.id, '?status=failed'))).toEqual([second.id, first.id]);
    expect(await list(sme.sessionToken, endpoint.id, '?status=succeeded')).toEqual([]);
    expect(ids(await list(sme.sessionToken, endpoint.id, `?eventType=${TEST_EVENT_TYPE}`))).toEqual([second.id, first.id]);
    expect(await list(sme.sessionToken, endpoint.id, '?eventType=split.leg_a.approved')).toEqual([]);
    expect(ids(await list(sme.sessionToken, endpoint.id, `?from=${t1}`))).toEqual([second.id]);
    expect(ids(await list(sme.sessionToken, endpoint.id, `?to=${plus(t1, -1)}`))).toEqual([first.id]);
    expect(ids(await list(sme.sessionToken, endpoint.id, `?from=${t0}&to=${plus(t1, 60)}&status=failed`))).toEqual([second.id, first.id]);
    const paged = await deliveries(sme.sessionToken, endpoint.id, `?from=${t0}&limit=1&page=2`);
    expect(paged.body).toEqual({ data: [expect.objectContaining({ id: first.id })], meta: { page: 2, limit: 1, total: 2, totalPages: 2 } });

    // The receiver is back: recover what failed since t1 only.
    receiver.respondWith(answer(200));
    const recovered = await app.request('POST', `${ENDPOINTS}/${endpoint.id}/recover`, { token: sme.sessionToken, body: { since: t1 } });
    expect(recovered.status).toBe(200);
    expect(recovered.body).toEqual({ data: { recovered: 1, remaining: 0, failed: 1, missed: null, dryRun: false } });
    await app.eventCount();
    const after = await list(sme.sessionToken, endpoint.id);
    expect(after.map((d) => [d.id, d.status])).toEqual([
      [second.id, 'succeeded'],
      [first.id, 'failed'],
    ]);
    expect(after[0].attempts.at(-1)).toMatchObject({ succeeded: true, responseStatus: 200 });

    // Nothing failed since now: recovers nothing, appends nothing.
    const events = await app.eventCount();
    expect(dataOf(await app.request('POST', `${ENDPOINTS}/${endpoint.id}/recover`, { token: sme.sessionToken, body: { since: await now() } }), 200)).toEqual({
      recovered: 0,
      remaining: 0,
      failed: 0,
      missed: null,
      dryRun: false,
    });
    expect(await app.eventCount()).toBe(events);
  });

  it('refuses bad filters and bad recover bodies with 400, other companies with 404, no credential with 401, and appends nothing', async () => {
    const sme = await signup(app, 'Strict Hooks');
    const other = await signup(app, 'Nosy');
    const endpoint = dataOf(await app.request('POST', ENDPOINTS, { token: sme.sessionToken, body: { url: `${receiver.url}/x`, eventTypes: ['split.leg_a.approved'] } }), 201);
    const before = await app.eventCount();
    for (const query of [
      '?status=lost',
      '?eventType=nope',
      '?from=yesterday',
      '?to=2026-13-01T00:00:00Z',
      '?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
      '?limit=0',
      '?colour=red',
    ]) {
      const refused = await deliveries(sme.sessionToken, endpoint.id, query);
      expect([query, refused.status, refused.body]).toEqual([query, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
    for (const body of [{}, { since: 'soon' }, { since: 5 }, { since: '2026-11-01T00:00:00Z', extra: true }]) {
      const refused = await app.request('POST', `${ENDPOINTS}/${endpoint.id}/recover`, { token: sme.sessionToken, body });
      expect([body, refused.status, refused.body]).toEqual([body, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
    const since = { since: '2020-01-01T00:00:00Z' };
    expect((await deliveries(other.sessionToken, endpoint.id)).body).toEqual(errorEnvelope('WEBHOOK_ENDPOINT_NOT_FOUND'));
    const foreign = await app.request('POST', `${ENDPOINTS}/${endpoint.id}/recover`, { token: other.sessionToken, body: since });
    expect([foreign.status, foreign.body]).toEqual([404, errorEnvelope('WEBHOOK_ENDPOINT_NOT_FOUND')]);
    expect((await app.request('POST', `${ENDPOINTS}/${endpoint.id}/recover`, { body: since })).status).toBe(401);
    expect((await deliveries('', endpoint.id)).status).toBe(401);
    expect(await app.eventCount()).toBe(before);

    dataOf(await app.request('PATCH', `${ENDPOINTS}/${endpoint.id}`, { token: sme.sessionToken, body: { enabled: false } }), 200);
    const disabled = await app.eventCount();
    const refused = await app.request('POST', `${ENDPOINTS}/${endpoint.id}/recover`, { token: sme.sessionToken, body: since });
    expect([refused.status, refused.body]).toEqual([409, errorEnvelope('WEBHOOK_ENDPOINT_DISABLED')]);
    expect(await app.eventCount()).toBe(disabled);
  });

  it('GET /api/commerce/webhooks/event-types lists every event type with a description and an example body of that type', async () => {
    const response = await app.request('GET', '/api/commerce/webhooks/event-types');
    expect(response.status).toBe(200);
    const catalogue = response.body.data as any[];
    expect(catalogue.map((entry) => entry.type).sort()).toEqual([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE].sort());
    for (const entry of catalogue) {
      expect(Object.keys(entry).sort()).toEqual(['description', 'example', 'subscribable', 'type']);
      expect(entry.subscribable).toBe(entry.type !== TEST_EVENT_TYPE);
      expect(entry.description.length).toBeGreaterThan(10);
      expect(entry.example).toEqual({ id: expect.stringMatching(/^evt_/), type: entry.type, createdAt: expect.any(String), data: expect.any(Object) });
    }
  });
});
