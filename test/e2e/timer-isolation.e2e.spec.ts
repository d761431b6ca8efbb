import { createCreator, createdSplit, createEnterprise, createSme, creatorRow, Enterprise, Creator, newIdempotencyKey, Sme } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { answer, hang, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/** How long the worker waits for the hanging endpoint: far longer than the healthy delivery may take. */
const HANG_TIMEOUT_MS = 10_000;

/**
 * Issue 15, item 10: one company's hanging webhook endpoint must not delay another company's webhooks
 * (or any other timer). Real receivers on loopback, the real timer worker.
 */
describe('timer worker isolation', () => {
  let app: TestApp;
  let slow: WebhookReceiver;
  let fast: WebhookReceiver;
  let enterprise: Enterprise;
  let creator: Creator;
  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: String(HANG_TIMEOUT_MS) });
    [slow, fast] = await Promise.all([startWebhookReceiver(hang()), startWebhookReceiver(answer(200))]);
    [enterprise, creator] = await Promise.all([createEnterprise(app), createCreator(app, { fullName: 'Casey Creator' })]);
  });
  afterAll(async () => {
    await Promise.all([slow.close(), fast.close()]);
    await app.close();
  });

  const endpoint = async (sme: Sme, url: string) => {
    const response = await app.request('POST', '/api/commerce/webhooks/endpoints', { token: sme.sessionToken, body: { url, eventTypes: ['split.leg_a.rejected'] } });
    expect(response.status).toBe(201);
  };
  const pendingSplit = (sme: Sme) =>
    createdSplit(app, sme.apiKey, {
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('isolation'),
      roster: [creatorRow(creator, '25000')],
    });
  const reject = async (split: { id: string; revision: number }) => {
    const rejected = await app.request('POST', `/api/commerce/splits/${split.id}/reject`, { token: enterprise.sessionToken, body: { revision: split.revision, reason: 'no' } });
    expect(rejected.status).toBe(200);
  };
  const rejectSplit = async (sme: Sme) => reject(await pendingSplit(sme));

  it("delivers another company's webhook while 40 deliveries hang on one endpoint, long before any of them times out", async () => {
    const [hanging, healthy] = await Promise.all([createSme(app, 'Hanging'), createSme(app, 'Healthy')]);
    await endpoint(hanging, `${slow.url}/hooks`);
    await endpoint(healthy, `${fast.url}/hooks`);
    for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 10 }, () => rejectSplit(hanging)));
    await slow.waitFor((requests) => requests.length >= 1, 5_000, 'the hanging endpoint to be called');
    // Let the worker pick up as much of the hanging backlog as it will.
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Timed from the rejection that causes the webhook (the Split's create is not part of it; a bound of
    // 200 ms from before the create failed once on a loaded CI machine, at 206 ms). A worker whose pool
    // the hanging endpoint held would send it only once a hanging request timed out and freed a lane.
    const split = await pendingSplit(healthy);
    const started = Date.now();
    await reject(split);
    const [delivered] = await fast.waitFor((requests) => requests.length >= 1, 5_000, "the healthy company's webhook");
    expect(delivered!.receivedAt - started).toBeLessThan(1_000);
    expect(delivered!.receivedAt - slow.requests[0]!.receivedAt).toBeLessThan(HANG_TIMEOUT_MS);
  }, 30_000);
});
