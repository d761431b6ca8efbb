import { CARDS, confirm, createdCheckout, createMerchant } from '../browser/checkout-fixtures';
import { createdSession, createPlatform } from '../support/payout-embed-fixtures';
import { createCompany, createdSplit, creatorRow, dataOf, errorEnvelope, newIdempotencyKey, setupSplitWorld } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The dashboard's Home: each company's recent activity in words, newest first, and only its own. */
describe('activity feed over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const activity = async (token: string, query = '') => dataOf(await app.request('GET', `/api/commerce/activity${query}`, { token }), 200) as any[];

  it("shows a Split's steps to its SME and its enterprise, newest first", async () => {
    const world = await setupSplitWorld(app, { sme: 'Feed Staffing', enterprise: 'Feed Globex' });
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('feed'),
      roster: [creatorRow(world.creator, '25000')],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();

    const label = 'Split of $250.00 from Feed Staffing to Feed Globex';
    const sme = await activity(world.sme.sessionToken);
    expect(sme.at(-1)).toEqual({
      type: 'api_key.issued',
      occurredAt: expect.any(String),
      summary: 'API key "server" created (split:write)',
      resource: { kind: 'api_key', id: expect.stringMatching(/^key_/) },
    });
    const splitLines = sme.filter((entry) => entry.resource.kind === 'split');
    expect(splitLines.at(-1)).toEqual({ type: 'split.created', occurredAt: expect.any(String), summary: `${label} created`, resource: { kind: 'split', id: split.id } });
    expect(splitLines.map((entry) => entry.type)).toEqual(expect.arrayContaining(['split.leg_a.approved', 'split.funded', 'split.created']));
    expect(splitLines.find((entry) => entry.type === 'split.leg_a.approved').summary).toBe(`${label}: approved by the enterprise`);
    const times = sme.map((entry) => entry.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);

    const enterprise = await activity(world.enterprise.sessionToken);
    expect(enterprise.filter((entry) => entry.resource.kind === 'split')).toEqual(splitLines);
    expect(await activity(world.sme.sessionToken, '?limit=2')).toEqual(sme.slice(0, 2));

    const stranger = await createCompany(app, 'Stranger');
    expect(await activity(stranger.sessionToken)).toEqual([]);
  });

  it("shows a merchant's paid orders and a platform's Payout Embed sessions", async () => {
    const merchant = await createMerchant(app, 'Feed Shop');
    const order = await createdCheckout(app, merchant.apiKey, { amountMinorUnits: '1999', checkoutMode: 'EMBEDDED' });
    dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
    const platform = await createPlatform(app, 'Feed Prizes');
    const session = await createdSession(app, platform.apiKey, { amountCents: '2500' });
    await app.eventCount();

    expect((await activity(merchant.sessionToken))[0]).toEqual({
      type: 'checkout.order.paid',
      occurredAt: expect.any(String),
      summary: 'Order paid: $19.99',
      resource: { kind: 'order', id: order.orderId },
    });
    expect((await activity(platform.sessionToken))[0]).toEqual({
      type: 'payout_embed.session.created',
      occurredAt: expect.any(String),
      summary: 'Payout Embed session of $25.00 created',
      resource: { kind: 'payout_embed_session', id: session.id },
    });
  });

  it('takes a session only and refuses a bad limit', async () => {
    const company = await createCompany(app, 'Feed Strict');
    expect((await app.request('GET', '/api/commerce/activity')).status).toBe(401);
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?page=1']) {
      const refused = await app.request('GET', `/api/commerce/activity${query}`, { token: company.sessionToken });
      expect([query, refused.status, refused.body]).toEqual([query, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
  });
});
