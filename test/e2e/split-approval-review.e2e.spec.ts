import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';
import { tempDir } from '../support/temp-dir';
import { createdSplit, creatorRow, dataOf, errorEnvelope, setupSplitWorld, splitBody, splitEventTypes, SplitWorld } from '../support/split-fixtures';

const ENTERPRISE_SPLITS = '/api/commerce/splits';
const SPLITS_BY_KEY = '/api/commerce/integration/splits';

/**
 * Issue 23, item 1: an approval is bound to what the enterprise reviewed. Seen before: the enterprise
 * opened a Split of 10000, the SME revised the roster to 100000000, and the enterprise's approve (no body)
 * approved 100000000.
 */
describe('approving what was reviewed', () => {
  let app: TestApp;
  let world: SplitWorld;
  const dataDir = tempDir('approval-review');
  beforeAll(async () => {
    app = await startTestApp({ DATA_DIR: dataDir });
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const read = async (id: string) => dataOf(await app.request('GET', `${ENTERPRISE_SPLITS}/${id}`, { token: world.enterprise.sessionToken }), 200);
  const approve = (id: string, body?: unknown) => app.request('POST', `${ENTERPRISE_SPLITS}/${id}/approve`, { token: world.enterprise.sessionToken, body });
  const reject = (id: string, body?: unknown) => app.request('POST', `${ENTERPRISE_SPLITS}/${id}/reject`, { token: world.enterprise.sessionToken, body });
  const raise = async (id: string, amountCents: string) =>
    dataOf(await app.request('PUT', `${SPLITS_BY_KEY}/${id}/roster`, { token: world.sme.apiKey, body: { roster: [creatorRow(world.creator, amountCents)] } }), 200);
  const tenThousand = () => createdSplit(app, world.sme.apiKey, splitBody(world, { totalAmountCents: undefined, roster: [creatorRow(world.creator, '10000')] }));

  it('refuses the approval of a Split revised after the enterprise read it (409, nothing appended), and approves the fresh revision', async () => {
    const created = await tenThousand();
    const reviewed = await read(created.id);
    expect(reviewed).toMatchObject({ revision: 1, totalAmountCents: '10000', status: 'PENDING_APPROVAL' });

    const revised = await raise(created.id, '100000000');
    expect(revised).toMatchObject({ revision: 2, totalAmountCents: '100000000' });
    const before = await splitEventTypes(app, created.id);

    const stale = await approve(created.id, { revision: reviewed.revision });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual(errorEnvelope('SPLIT_CHANGED_SINCE_REVIEW', [{ field: 'revision', message: 'is 1; the Split is now at revision 2', currentRevision: 2 }]));
    expect(await splitEventTypes(app, created.id)).toEqual(before);
    expect(await read(created.id)).toMatchObject({ status: 'PENDING_APPROVAL', revision: 2, totalAmountCents: '100000000' });

    // The enterprise reads it again and decides on what it now sees.
    const fresh = await read(created.id);
    const approved = dataOf(await approve(created.id, { revision: fresh.revision }), 200);
    expect(approved).toMatchObject({ status: 'APPROVED', revision: 2, totalAmountCents: '100000000' });
    expect(await splitEventTypes(app, created.id)).toEqual([...before, 'split.leg_a.approved']);
  });

  it('refuses a rejection at a stale revision the same way', async () => {
    const created = await tenThousand();
    await raise(created.id, '20000');
    const before = await splitEventTypes(app, created.id);
    const stale = await reject(created.id, { revision: 1, reason: 'too much' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('SPLIT_CHANGED_SINCE_REVIEW');
    expect(await splitEventTypes(app, created.id)).toEqual(before);
    expect(dataOf(await reject(created.id, { revision: 2, reason: 'too much' }), 200)).toMatchObject({ status: 'REJECTED', revision: 2 });
  });

  it('refuses an approval or rejection that names no revision, or not a positive integer (400), and appends nothing', async () => {
    const created = await tenThousand();
    const before = await splitEventTypes(app, created.id);
    for (const body of [undefined, {}, { revision: '1' }, { revision: 0 }, { revision: 1.5 }, { revision: null }]) {
      const approved = await approve(created.id, body);
      expect({ body, status: approved.status, code: approved.body.error.code }).toEqual({ body, status: 400, code: 'VALIDATION_FAILED' });
      expect(approved.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'revision' })]));
      const rejected = await reject(created.id, body);
      expect({ body, status: rejected.status, code: rejected.body.error.code }).toEqual({ body, status: 400, code: 'VALIDATION_FAILED' });
    }
    expect(await splitEventTypes(app, created.id)).toEqual(before);
    expect(await read(created.id)).toMatchObject({ status: 'PENDING_APPROVAL' });
  });

  it('gives a Split whose read-model document predates revisions the revision folded from its events', async () => {
    const created = await tenThousand();
    await raise(created.id, '20000');
    await raise(created.id, '30000');
    // As the document the version before revisions wrote: the same fields, without `revision`.
    const { activeGeneration } = await app.platform.readStore.projectionState('splits');
    const db = new Database(join(dataDir, 'read.db'));
    try {
      db.prepare(`UPDATE rm_splits_g${activeGeneration} SET body = json_remove(body, '$.revision') WHERE id = ?`).run(created.id);
      expect(JSON.parse(db.prepare<[string], { body: string }>(`SELECT body FROM rm_splits_g${activeGeneration} WHERE id = ?`).get(created.id)!.body)).not.toHaveProperty(
        'revision',
      );
    } finally {
      db.close();
    }
    expect(await read(created.id)).toMatchObject({ revision: 3 });
    const listed = dataOf(await app.request('GET', `${ENTERPRISE_SPLITS}/incoming?status=PENDING_APPROVAL&limit=100`, { token: world.enterprise.sessionToken }), 200);
    expect(listed.find((split: { id: string }) => split.id === created.id)).toMatchObject({ revision: 3 });
    expect(dataOf(await approve(created.id, { revision: 3 }), 200)).toMatchObject({ status: 'APPROVED', revision: 3 });
  });
});
