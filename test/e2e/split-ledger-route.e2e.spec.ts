import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, createSme, dataOf, errorEnvelope, setupSplitWorld, splitBody, SplitWorld } from '../support/split-fixtures';

// The ledger route is served by the ledger module; its contract is the split routes' one.
describe('GET /api/commerce/integration/splits/:id/ledger', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const ledgerPath = (id: string) => `/api/commerce/integration/splits/${id}/ledger`;

  it("answers the owner, 404 for another company's Split or an unknown id, 401 without a key, 403 for a session", async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    expect(dataOf(await app.request('GET', ledgerPath(created.id), { token: world.sme.apiKey }), 200)).toEqual([]);

    const other = await createSme(app, 'Other Staffing');
    const foreign = await app.request('GET', ledgerPath(created.id), { token: other.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(errorEnvelope('SPLIT_NOT_FOUND'));
    expect((await app.request('GET', ledgerPath('spl_unknown'), { token: world.sme.apiKey })).status).toBe(404);

    expect((await app.request('GET', ledgerPath(created.id))).status).toBe(401);
    expect((await app.request('GET', ledgerPath(created.id), { token: world.sme.sessionToken })).status).toBe(403);
  });
});
