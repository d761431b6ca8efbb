import { rowTransferTimer } from '../../src/split/application/split-settlement.timers';
import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, dataOf, setupSplitWorld, splitBody, splitEventTypes, SplitWorld, subVendorRow } from '../support/split-fixtures';

/**
 * Issue 23, item 4: every net-terms row paid out on demand, so the Split SETTLES before maturity; the rows'
 * timers still fire at maturity and must find nothing to do (before: SPLIT_NOT_FUNDED ten times, then parked
 * while /health said ok). A parked timer of any kind shows in /health as degraded.
 */
describe('row timers of a Split that settled early, and parked timers in /health', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const get = async (id: string) => dataOf(await app.request('GET', `/api/commerce/integration/splits/${id}`, { token: world.sme.apiKey }), 200);
  const parkedLines = async () => (await app.request('GET', '/metrics')).text.split('\n').filter((line) => line.includes('status="parked"'));

  it('pays every net-terms row out on demand, then lets maturity pass: nothing decided, no timer parked, /health ok', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [subVendorRow(world.walletVendor, '10000'), subVendorRow(world.plainVendor, '5000')] }));
    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: created.revision } }), 200);
    await advance(1);
    expect(await get(created.id)).toMatchObject({ status: 'FUNDED' });
    for (const row of created.distributions) {
      dataOf(await app.request('POST', `/api/commerce/integration/splits/${created.id}/distributions/${row.id}/payout`, { token: world.sme.apiKey }), 200);
    }
    await advance(1);
    expect(await get(created.id)).toMatchObject({ status: 'SETTLED' });
    const eventsWhenSettled = await splitEventTypes(app, created.id);

    // Past the 30-day maturity and far past the ten retries (2 s .. 1 h apart) that used to park the timers.
    await advance(40 * 86_400);

    for (const row of created.distributions) {
      const id = rowTransferTimer.id({ splitId: created.id, distributionId: row.id, instant: false, attempt: 1 });
      expect(await app.platform.readStore.timerStatus(id)).toEqual({ status: 'done', attempts: 1, lastError: null });
    }
    expect(await parkedLines()).toEqual([]);
    expect(await splitEventTypes(app, created.id)).toEqual(eventsWhenSettled);
    expect(await get(created.id)).toMatchObject({ status: 'SETTLED' });
    const health = await app.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ status: 'ok', parkedTimers: [], reasons: [] });
  }, 60_000);

  it('reports a parked timer of any kind as degraded, with the kind and the reason, and keeps serving (200)', async () => {
    app.platform.timers.register('test.always_fails', async () => {
      throw new Error('downstream gone');
    });
    const now = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    await app.platform.timers.schedule({ id: 'always-fails-1', kind: 'test.always_fails', dueAt: now, payload: {} });
    await advance(86_400);
    expect(await app.platform.readStore.timerStatus('always-fails-1')).toMatchObject({ status: 'parked', attempts: 10, lastError: 'downstream gone' });
    expect(await parkedLines()).toEqual(['paysplit_timers{kind="test.always_fails",status="parked"} 1']);

    const health = await app.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({
      status: 'degraded',
      eventStore: 'up',
      readStore: 'up',
      parkedTimers: [{ kind: 'test.always_fails', count: 1 }],
      reasons: ['1 parked timer of kind test.always_fails'],
    });
  }, 60_000);
});
