import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import { createdSplit, createSme, creatorRow, dataOf, errorEnvelope, newIdempotencyKey, setupSplitWorld, SplitWorld } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The checkout fields of GET /api/commerce/balance (issue 26), for a company that never sold through Checkout. */
const NO_CHECKOUT_MONEY = { checkoutBalanceCents: '0', checkoutPayoutsInTransitCents: '0', checkoutPaidOutCents: '0' };

/** The dashboard reads Splits by session: the SME's list, and detail, history, as-of and ledger for either party. */
describe('Splits by session over HTTP', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'Dash Staffing', enterprise: 'Dash Globex' });
  });
  afterAll(async () => {
    await app.close();
  });

  const newSplit = () =>
    createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('dash'),
      roster: [creatorRow(world.creator, '25000')],
    });
  const get = (path: string, token?: string) => app.request('GET', path, { token });

  it('lists the SME its own Splits newest first, filtered by status', async () => {
    const pending = await newSplit();
    // Newest first is by creation time: a sandbox second apart, so the two never tie.
    await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 1 } });
    const approved = await newSplit();
    dataOf(await app.request('POST', `/api/commerce/splits/${approved.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: approved.revision } }), 200);

    const all = await get('/api/commerce/splits/outgoing', world.sme.sessionToken);
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: any) => s.id).slice(0, 2)).toEqual([approved.id, pending.id]);
    expect(all.body.meta).toMatchObject({ page: 1, limit: 20 });
    // Same items as the API-key list.
    expect(all.body).toEqual((await get('/api/commerce/integration/splits', world.sme.apiKey)).body);

    const onlyPending = dataOf(await get('/api/commerce/splits/outgoing?status=PENDING_APPROVAL', world.sme.sessionToken), 200);
    expect(onlyPending.map((s: any) => s.id)).toContain(pending.id);
    expect(onlyPending.every((s: any) => s.status === 'PENDING_APPROVAL')).toBe(true);
    expect(onlyPending.map((s: any) => s.id)).not.toContain(approved.id);

    // The enterprise's inbox takes the same filter.
    const inbox = dataOf(await get('/api/commerce/splits/incoming?status=PENDING_APPROVAL', world.enterprise.sessionToken), 200);
    expect(inbox.map((s: any) => s.id)).toContain(pending.id);
    expect(inbox.map((s: any) => s.id)).not.toContain(approved.id);

    // The enterprise sent none: its outgoing list is empty.
    expect(dataOf(await get('/api/commerce/splits/outgoing', world.enterprise.sessionToken), 200)).toEqual([]);
  });

  it('shows one Split, its history, its as-of view and its ledger to the SME and the enterprise (by cookie too), and 404 to anyone else', async () => {
    const split = await newSplit();
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();

    const byKey = {
      split: dataOf(await get(`/api/commerce/integration/splits/${split.id}`, world.sme.apiKey), 200),
      history: dataOf(await get(`/api/commerce/integration/splits/${split.id}/history`, world.sme.apiKey), 200),
      ledger: dataOf(await get(`/api/commerce/integration/splits/${split.id}/ledger`, world.sme.apiKey), 200),
    };
    expect(byKey.ledger.length).toBeGreaterThan(0);
    const createdAt = byKey.history[0].occurredAt;
    const asOfCreation = dataOf(await get(`/api/commerce/integration/splits/${split.id}?asOf=${createdAt}`, world.sme.apiKey), 200);
    expect(asOfCreation.status).toBe('PENDING_APPROVAL');

    const login = await app.request('POST', '/api/auth/login', { body: { email: world.enterprise.email, password: 'correct horse battery' } });
    const enterpriseCookie = browser(sessionCookie(login));
    // Each side reads the history in its own field list: the SME's key id and idempotency key are the SME's,
    // the approving user is the enterprise's (docs/api.md#who-sees-what).
    const [created, approved] = byKey.history;
    expect(created.data.clientIdempotencyKey).toBeDefined();
    expect(approved.actor).toBe('enterprise');
    expect(approved.data.approvedBy).toBeUndefined();
    const { clientIdempotencyKey: _key, createdBy: _by, ...createdForEnterprise } = created.data;
    const enterpriseHistory = [
      // Names (issue 30): a reader sees its own members' emails, never the other company's key or people.
      { ...created, actor: 'sme', actorName: null, data: createdForEnterprise },
      { ...approved, actor: `user:${world.enterprise.userId}`, actorName: world.enterprise.email, data: { ...approved.data, approvedBy: `user:${world.enterprise.userId}` } },
      ...byKey.history.slice(2),
    ];
    for (const as of [{ token: world.sme.sessionToken }, { token: world.enterprise.sessionToken }, { headers: enterpriseCookie }]) {
      const read = (path: string) => app.request('GET', `/api/commerce/splits/${split.id}${path}`, as);
      // Who approved is the enterprise's to read (issue 30); the SME reads 'enterprise'. The SME's own reference
      // (its clientIdempotencyKey) is the SME's only, as in the history (issue 29).
      const approvedBy = as.token === world.sme.sessionToken ? 'enterprise' : expect.stringMatching(/^user:/);
      const reference = as.token === world.sme.sessionToken ? byKey.split.reference : null;
      expect(dataOf(await read(''), 200)).toEqual({ ...byKey.split, reference, approvals: byKey.split.approvals.map((a: object) => ({ ...a, approvedBy })) });
      expect(dataOf(await read('/history'), 200)).toEqual(as.token === world.sme.sessionToken ? byKey.history : enterpriseHistory);
      expect(dataOf(await read('/ledger'), 200)).toEqual(byKey.ledger);
      expect(dataOf(await read(`?asOf=${createdAt}`), 200)).toEqual(as.token === world.sme.sessionToken ? asOfCreation : { ...asOfCreation, reference: null });
    }

    const stranger = await createSme(app, 'Stranger Staffing');
    for (const path of ['', '/history', '/ledger', `?asOf=${createdAt}`]) {
      const foreign = await get(`/api/commerce/splits/${split.id}${path}`, stranger.sessionToken);
      expect([path, foreign.status, foreign.body]).toEqual([path, 404, errorEnvelope('SPLIT_NOT_FOUND')]);
      expect((await get(`/api/commerce/splits/spl_unknown${path}`, world.sme.sessionToken)).status).toBe(404);
      expect((await get(`/api/commerce/splits/${split.id}${path}`)).status).toBe(401);
      const byApiKey = await get(`/api/commerce/splits/${split.id}${path}`, world.sme.apiKey);
      expect([path, byApiKey.status, byApiKey.body]).toEqual([path, 403, errorEnvelope('CREDENTIAL_NOT_ALLOWED')]);
    }
  });

  it("shows the SME's held margin beside its balance until it is released", async () => {
    const sme = await createSme(app, 'Margin Staffing');
    const balance = async () => dataOf(await get('/api/commerce/balance', sme.sessionToken), 200);
    const split = await createdSplit(app, sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('margin'),
      totalAmountCents: '30000',
      roster: [creatorRow(world.creator, '25000')],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();
    expect(await balance()).toEqual([
      { currency: 'USD', availableCents: '0', reservedCents: '0', owedToContractorsCents: '25000', marginHeldCents: '5000', reservedForFeesCents: '0', ...NO_CHECKOUT_MONEY },
    ]);
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/settle-margin`, { token: sme.sessionToken }), 200);
    await app.eventCount();
    expect((await balance())[0]).toMatchObject({ marginHeldCents: '0' });
  });

  it('refuses bad list and as-of queries with 400', async () => {
    const split = await newSplit();
    for (const path of ['/outgoing?status=DONE', '/outgoing?limit=0', '/outgoing?colour=red', '/incoming?status=nope', `/${split.id}?asOf=yesterday`, `/${split.id}?x=1`]) {
      const refused = await get(`/api/commerce/splits${path}`, world.sme.sessionToken);
      expect([path, refused.status, refused.body]).toEqual([path, 400, errorEnvelope('VALIDATION_FAILED')]);
    }
  });

  it("lists an enterprise's per-SME settings with the SME's name; another company sees only its own", async () => {
    const put = (sme: string, body: unknown) => app.request('PUT', `/api/commerce/split-settings/sme/${sme}`, { token: world.enterprise.sessionToken, body });
    const other = await createSme(app, 'Other Staffing');
    dataOf(await put(world.sme.companyId, { autoAccept: false, coverFees: true }), 200);
    dataOf(await put(other.companyId, { autoAccept: true, coverFees: false }), 200);
    const listed = dataOf(await get('/api/commerce/split-settings', world.enterprise.sessionToken), 200);
    expect(listed).toEqual([
      { smeCompanyId: other.companyId, smeCompanyName: 'Other Staffing', autoAccept: true, coverFees: false, updatedAt: expect.any(String) },
      { smeCompanyId: world.sme.companyId, smeCompanyName: 'Dash Staffing', autoAccept: false, coverFees: true, updatedAt: expect.any(String) },
    ]);
    expect(dataOf(await get('/api/commerce/split-settings', world.sme.sessionToken), 200)).toEqual([]);
    expect((await get('/api/commerce/split-settings')).status).toBe(401);
    expect((await get('/api/commerce/split-settings', world.sme.apiKey)).status).toBe(403);
  });
});
