import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, creatorRow, dataOf, setupSplitWorld, splitBody, SplitWorld, subVendorRow } from '../support/split-fixtures';

describe('Split audit: history and as-of', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const advance = (seconds: number) => app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } });

  it('returns every event in order and the Split as it stood at any moment', async () => {
    const split = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [creatorRow(world.creator, '5000')], totalAmountCents: '6000' }));
    const afterCreate = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    await advance(3600);
    const revised = dataOf(
      await app.request('PUT', `/api/commerce/integration/splits/${split.id}/roster`, {
        token: world.sme.apiKey,
        body: { roster: [creatorRow(world.creator, '4000'), subVendorRow(world.walletVendor, '3000')] },
      }),
      200,
    );
    const afterRevise = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    await advance(3600);
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: revised.revision } }), 200);
    await advance(1); // let funding and the instant-free rows settle into the log

    const history = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}/history`, { token: world.sme.apiKey }), 200);
    expect(history.map((e: { type: string }) => e.type).slice(0, 4)).toEqual(['split.created', 'split.roster.revised', 'split.leg_a.approved', 'split.funded']);
    expect(history.map((e: { revision: number }) => e.revision)).toEqual(history.map((_: unknown, i: number) => i));
    for (const entry of history) expect(Object.keys(entry).sort()).toEqual(['actor', 'actorName', 'data', 'occurredAt', 'revision', 'type']);
    expect(history[0].actor).toMatch(/^api_key:key_/);
    expect(history[0].actorName).toMatch(/^API key "/); // issue 30: the reader's own key by name
    // The approving user is the enterprise's: the SME reads the party, not the person (docs/api.md#who-sees-what).
    expect(history[2]).toMatchObject({ actor: 'enterprise', actorName: null });
    expect(history[1].data).toMatchObject({ totalAmountCents: '7000', marginAmountCents: '0' });
    // Field lists, not event data: no contractor's email or wallet email, even to the SME (issue 24).
    const read = JSON.stringify(history);
    for (const secret of [world.creator.email, world.creator.walletEmail!, world.walletVendor.email, world.walletVendor.walletEmail!]) expect(read).not.toContain(secret);
    for (const row of history[1].data.distributions) expect(Object.keys(row)).not.toEqual(expect.arrayContaining(['walletEmail']));

    const asOf = async (at: string) => app.request('GET', `/api/commerce/integration/splits/${split.id}?asOf=${encodeURIComponent(at)}`, { token: world.sme.apiKey });
    expect(dataOf(await asOf(afterCreate), 200)).toEqual(split);
    expect(dataOf(await asOf(afterRevise), 200)).toEqual(revised);
    const now = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}`, { token: world.sme.apiKey }), 200);
    expect(now.status).toBe('FUNDED');
    expect(dataOf(await asOf('2999-01-01T00:00:00.000Z'), 200)).toEqual(now);
    expect((await asOf('2000-01-01T00:00:00.000Z')).status).toBe(404);
    expect((await asOf('yesterday')).status).toBe(400);

    const other = await setupSplitWorld(app, { sme: 'Other SME', enterprise: 'Other Ent' });
    expect((await app.request('GET', `/api/commerce/integration/splits/${split.id}/history`, { token: other.sme.apiKey })).status).toBe(404);
    expect((await app.request('GET', `/api/commerce/integration/splits/${split.id}?asOf=${encodeURIComponent(afterCreate)}`, { token: other.sme.apiKey })).status).toBe(404);

    // The operator's CLI prints the same history from the same files.
    const cli = spawnSync(process.execPath, [join(__dirname, '../../dist/src/cli.js'), 'splits:history', split.id], {
      env: { ...process.env, SANDBOX: 'true', DATA_DIR: app.platform.config.dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('#0');
    expect(cli.stdout).toContain('split.roster.revised');
    expect(cli.stdout).toContain('split.leg_a.approved');
    const asOfCli = spawnSync(process.execPath, [join(__dirname, '../../dist/src/cli.js'), 'splits:as-of', split.id, afterRevise], {
      env: { ...process.env, SANDBOX: 'true', DATA_DIR: app.platform.config.dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(asOfCli.status).toBe(0);
    expect(JSON.parse(asOfCli.stdout)).toEqual(revised);
  });

  it('answers as of the creation time, and shows each distribution as it stood (payouts included)', async () => {
    const split = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [creatorRow(world.creator, '5000'), subVendorRow(world.walletVendor, '3000')] }));
    const asOf = async (at: string) => app.request('GET', `/api/commerce/integration/splits/${split.id}?asOf=${encodeURIComponent(at)}`, { token: world.sme.apiKey });
    // One clock reading stamps the Split's createdAt and its creation event's occurredAt.
    expect(dataOf(await asOf(split.createdAt), 200)).toEqual(split);
    const history = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}/history`, { token: world.sme.apiKey }), 200);
    expect(history[0].occurredAt).toBe(split.createdAt);

    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await advance(31 * 86_400);
    const settled = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}`, { token: world.sme.apiKey }), 200);
    expect(settled.status).toBe('SETTLED');
    expect(settled.distributions.map((d: { status: string }) => d.status)).toEqual(['COMPLETED', 'COMPLETED']);
    const later = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    expect(dataOf(await asOf(later), 200)).toEqual(settled);
    expect(dataOf(await asOf(settled.updatedAt), 200).status).toBe('SETTLED');
  });
});
