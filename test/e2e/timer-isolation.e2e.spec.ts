import { createCreator, createdSplit, createEnterprise, createSme, creatorRow, Enterprise, Creator, newIdempotencyKey, Sme } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { answer, hang, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

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
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '4000' });
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
  const rejectSplit = async (sme: Sme) => {
    const split = await createdSplit(app, sme.apiKey, {
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('isolation'),
      roster: [creatorRow(creator, '25000')],
    });
    const rejected = await app.request('POST', `/api/commerce/splits/${split.id}/reject`, { token: enterprise.sessionToken, body: { revision: split.revision, reason: 'no' } });
    expect(rejected.status).toBe(200);
  };

  it("delivers another company's webhook within 200 ms while 40 deliveries hang on one endpoint", async () => {
    const [hanging, healthy] = await Promise.all([createSme(app, 'Hanging'), createSme(app, 'Healthy')]);
    await endpoint(hanging, `${slow.url}/hooks`);
    await endpoint(healthy, `${fast.url}/hooks`);
    for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 10 }, () => rejectSplit(hanging)));
    await slow.waitFor((requests) => requests.length >= 1, 5_000, 'the hanging endpoint to be called');
    // Let the worker pick up as much of the hanging backlog as it will.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = Date.now();
    await rejectSplit(healthy);
    const [delivered] = await fast.waitFor((requests) => requests.length >= 1, 5_000, "the healthy company's webhook");
    expect(delivered!.receivedAt - started).toBeLessThan(200);
  }, 30_000);
});
