import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../../test/support/temp-dir';
import { holdFsyncs, settlesSoon } from '../../../../test/support/held-fsyncs';
import { Doc, DocumentWrite } from '../document-store.port';
import { SqliteReadStore } from './sqlite-read-store';

describe('SqliteReadStore on a file from an earlier release', () => {
  it('adds the timer completion column, keeps older done timers and purges the ones completed since', async () => {
    const file = join(tempDir('migrate'), 'read.db');
    const old = new Database(file);
    old.exec(`CREATE TABLE timers (
      id TEXT PRIMARY KEY, kind TEXT NOT NULL, due_at TEXT NOT NULL, payload TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'scheduled',
      lease_owner TEXT, lease_until_ms INTEGER, last_error TEXT)`);
    old.prepare("INSERT INTO timers (id, kind, due_at, payload, attempts, status) VALUES ('legacy', 'k', '2020-01-01T00:00:00.000Z', '{}', 1, 'done')").run();
    old.close();

    const store = new SqliteReadStore(file);
    await store.scheduleTimer({ id: 'fresh', kind: 'k', dueAt: '2020-01-01T00:00:00.000Z', payload: {} });
    await store.claimDueTimers('2020-01-02T00:00:00.000Z', 'w', 1_000, 500, 10);
    await store.completeTimer('fresh', 'w', 1_000);
    expect(await store.purgeDoneTimers(Number.MAX_SAFE_INTEGER, 10)).toBe(1);
    expect(await store.timerStatus('legacy')).toEqual({ status: 'done', attempts: 1, lastError: null });
    expect(await store.timerStatus('fresh')).toBeNull();
    await store.close();
  });

  it('adds the projection version column: a generation recorded before it counts as version 1', async () => {
    const file = join(tempDir('migrate-version'), 'read.db');
    const old = new Database(file);
    old.exec(`CREATE TABLE projections (name TEXT PRIMARY KEY, active_generation INTEGER NOT NULL, status TEXT NOT NULL, error TEXT);
      CREATE TABLE projection_generations (
        name TEXT NOT NULL, generation INTEGER NOT NULL, checkpoint INTEGER, retired INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (name, generation))`);
    old.prepare("INSERT INTO projections (name, active_generation, status) VALUES ('ledger', 1, 'running')").run();
    old.prepare("INSERT INTO projection_generations (name, generation, checkpoint) VALUES ('ledger', 1, 42)").run();
    old.close();

    const store = new SqliteReadStore(file);
    await store.registerProjection('ledger', [], 2);
    expect(await store.projectionState('ledger')).toMatchObject({ activeGeneration: 1, checkpoint: 42, version: 1 });
    await store.close();
  });
});

describe('SqliteReadStore group commit (issue 31)', () => {
  it('commits the projection commits requested in one turn in one transaction, each an atomic unit of its own', async () => {
    const store = new SqliteReadStore(join(tempDir('group-commit'), 'read.db'));
    await store.registerProjection('left', [{ name: 'left_docs' }]);
    await store.registerProjection('right', [{ name: 'right_docs' }]);
    const before = { ...store.commitStats };

    const outcomes = await Promise.allSettled([
      store.commitProjection({
        projection: 'left',
        generation: 1,
        checkpoint: 5,
        streamRevisions: { 'a-1': 0 },
        writes: [{ kind: 'put', collection: 'left_docs', doc: { id: 'l1' } }],
      }),
      // Writes one of its documents, then to a collection of another projection: refused, and only this
      // commit is rolled back (the group ran without savepoints first, and again with them).
      store.commitProjection({
        projection: 'right',
        generation: 1,
        checkpoint: 5,
        streamRevisions: { 'b-1': 0 },
        writes: [
          { kind: 'put', collection: 'right_docs', doc: { id: 'r0' } },
          { kind: 'put', collection: 'left_docs', doc: { id: 'x' } },
        ],
      }),
      store.commitProjection({
        projection: 'right',
        generation: 1,
        checkpoint: 6,
        streamRevisions: { 'b-2': 0 },
        writes: [{ kind: 'put', collection: 'right_docs', doc: { id: 'r1' } }],
      }),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(store.commitStats.transactions - before.transactions).toBe(1);
    expect(store.commitStats.commits - before.commits).toBe(3);
    expect(await store.checkpointOf('left', 1)).toBe(5);
    expect(await store.checkpointOf('right', 1)).toBe(6);
    expect(await store.get('left_docs', 'x')).toBeNull();
    expect(await store.get('right_docs', 'r0')).toBeNull();
    expect(await store.get('left_docs', 'l1')).toEqual({ id: 'l1' });
    expect(await store.streamRevisionOf('right', 1, 'b-1')).toBeNull();
    expect(await store.get('right_docs', 'r1')).toEqual({ id: 'r1' });
    await store.close();
  });
});

describe('SqliteReadStore group commit fsync off the event loop (issue 31)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('acknowledges a group only once its WAL is fsynced, and keeps synchronous = FULL for every other write', async () => {
    const file = join(tempDir('group-fsync'), 'read.db');
    const store = new SqliteReadStore(file);
    await store.registerProjection('left', [{ name: 'left_docs' }]);
    const fsyncs = holdFsyncs();

    const commit = store.commitProjection({
      projection: 'left',
      generation: 1,
      checkpoint: 3,
      streamRevisions: {},
      writes: [{ kind: 'put', collection: 'left_docs', doc: { id: 'l1' } }],
    });
    expect(await settlesSoon(commit)).toBe(false); // the event loop went on while the group's fsync runs
    expect(fsyncs.calls()).toBe(1);
    fsyncs.releaseOne();
    await commit;
    expect(await store.checkpointOf('left', 1)).toBe(3);
    expect((store as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    await store.close();
  });
});

describe('SqliteReadStore rebuild batches (issue 31)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('acknowledges a batch into a shadow generation without waiting for an fsync, and activates it durably', async () => {
    const store = new SqliteReadStore(join(tempDir('shadow-commit'), 'read.db'));
    await store.registerProjection('left', [{ name: 'left_docs' }]);
    const shadow = await store.createShadowGeneration('left');
    const fsyncs = holdFsyncs();
    const batch = store.commitProjection({
      projection: 'left',
      generation: shadow,
      checkpoint: 9,
      streamRevisions: { 'a-1': 0 },
      writes: [{ kind: 'put', collection: 'left_docs', doc: { id: 'l1' } }],
      shadow: true,
    });
    expect(await settlesSoon(batch)).toBe(true);
    expect(fsyncs.calls()).toBe(0);
    await store.activateGeneration('left', shadow); // a FULL commit: SQLite's own fsync carries the batches before it
    expect(await store.get('left_docs', 'l1')).toEqual({ id: 'l1' });
    expect((await store.projectionState('left')).checkpoint).toBe(9);
    await store.close();
  });
});

describe('SqliteReadStore active generation cache', () => {
  const thing = (v: string): DocumentWrite => ({ kind: 'put', collection: 'things', doc: { id: 'a', v } as Doc });
  it('reads the new generation after a rebuild swap made by another store instance on the same file (another process, e.g. the CLI)', async () => {
    const file = join(tempDir('generation-cache'), 'read.db');
    const api = new SqliteReadStore(file);
    const cli = new SqliteReadStore(file);
    await api.registerProjection('things', [{ name: 'things' }]);
    await cli.registerProjection('things', [{ name: 'things' }]);
    await cli.commitProjection({ projection: 'things', generation: 1, checkpoint: 1, streamRevisions: {}, writes: [thing('old')] });
    // The api reads (and caches) generation 1.
    expect(await api.get('things', 'a')).toMatchObject({ v: 'old' });
    const shadow = await cli.createShadowGeneration('things');
    await cli.commitProjection({ projection: 'things', generation: shadow, checkpoint: 1, streamRevisions: {}, writes: [thing('new')] });
    expect(await api.get('things', 'a')).toMatchObject({ v: 'old' });
    // Within the same event-loop turn as the api's last check of data_version: the table it cached is gone, and it reads again.
    await cli.activateGeneration('things', shadow);
    expect(await api.get('things', 'a')).toMatchObject({ v: 'new' });
    expect(await api.find('things', {})).toEqual([expect.objectContaining({ v: 'new' })]);
    // And a swap by the reading instance itself.
    const again = await api.createShadowGeneration('things');
    await api.commitProjection({ projection: 'things', generation: again, checkpoint: 1, streamRevisions: {}, writes: [thing('newest')] });
    await api.activateGeneration('things', again);
    expect(await api.get('things', 'a')).toMatchObject({ v: 'newest' });
    expect(await cli.get('things', 'a')).toMatchObject({ v: 'newest' });
    await cli.close();
    await api.close();
  });
});

/** The SQL the stores prepared while `run` ran, for a query plan. */
async function preparedDuring(run: () => Promise<void>): Promise<string[]> {
  const prepared: string[] = [];
  const prepare = Database.prototype.prepare;
  const spy = jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
    prepared.push(sql);
    return prepare.call(this, sql);
  } as typeof prepare);
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return prepared;
}

describe('SqliteReadStore sorts on a unique field (issue 31, books CSV)', () => {
  it('walks the index for a page sorted by a unique field: no temporary B-tree for an id tiebreak', async () => {
    const file = join(tempDir('unique-sort'), 'read.db');
    const store = new SqliteReadStore(file);
    // Declared as the ledger's lines are (ledger-lines.ts).
    await store.registerProjection('books', [{ name: 'lines', indexes: [['owner', 'key']], unique: ['key'] }]);
    const prepared = await preparedDuring(async () => {
      await store.find('lines', { filter: { owner: 'co_1' }, sort: [{ field: 'key', direction: 'desc' }], limit: 100 });
      await store.find('lines', { filter: { owner: 'co_1' }, range: { key: { lt: 'k9' } }, sort: [{ field: 'key', direction: 'desc' }], limit: 100 });
    });
    const finds = prepared.filter((sql) => sql.includes('ORDER BY'));
    expect(finds).toHaveLength(2);
    const reader = new Database(file, { readonly: true });
    for (const sql of finds) {
      const plan = reader
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...Array.from(sql.match(/\?/g)!, () => 'x'))
        .map((row) => row.detail);
      expect(plan).toEqual([expect.stringContaining('USING INDEX rm_lines_g1__owner_key')]);
    }
    reader.close();
    await store.close();
  });
});

describe("SqliteReadStore pages a field narrowed to several values (the bills' Open view)", () => {
  it('seeks the index that leads with the field once per value for a sorted page, and counts from it', async () => {
    const file = join(tempDir('one-of-plan'), 'read.db');
    const store = new SqliteReadStore(file);
    // Declared as the invoices are (invoices-read-model.projection.ts): the owner-and-due index would give the order,
    // but testing each document's status on the way reads every paid bill before the first open one.
    await store.registerProjection('bills', [
      {
        name: 'invoices',
        indexes: [
          ['owner', 'dueAt'],
          ['owner', 'status', 'dueAt'],
        ],
      },
    ]);
    const range = { status: { oneOf: ['OPEN', 'PARTIALLY_PAID'] } };
    const prepared = await preparedDuring(async () => {
      await store.find('invoices', { filter: { owner: 'co_1' }, range, sort: [{ field: 'dueAt', direction: 'asc' }], skip: 20, limit: 20 });
      await store.count('invoices', { owner: 'co_1' }, range);
    });
    const [find, count] = prepared.filter((sql) => sql.includes('rm_invoices_g1') && sql.startsWith('SELECT'));
    const reader = new Database(file, { readonly: true });
    const planOf = (sql: string) =>
      reader
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...Array.from(sql.match(/\?/g)!, () => 'x'))
        .map((row) => row.detail)
        .filter((detail) => detail.includes('rm_invoices_g1'));
    expect(planOf(find!)).toEqual([
      expect.stringContaining('USING INDEX rm_invoices_g1__owner_status_dueAt (<expr>=? AND <expr>=?)'),
      expect.stringContaining('USING INDEX rm_invoices_g1__owner_status_dueAt (<expr>=? AND <expr>=?)'),
    ]);
    expect(planOf(count!)).toEqual([expect.stringContaining('USING COVERING INDEX rm_invoices_g1__owner_status_dueAt')]);
    reader.close();
    await store.close();
  });
});

describe('SqliteReadStore shadow generations (issue 31, ledger rebuild)', () => {
  const indexesOf = (file: string, table: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name")
        .all(table)
        .map((row) => row.name);
    } finally {
      db.close();
    }
  };

  it('builds a shadow without its secondary indexes and gives them to it when it is activated, with the same answers', async () => {
    const file = join(tempDir('shadow-indexes'), 'read.db');
    const store = new SqliteReadStore(file);
    const spec = [{ name: 'lines', indexes: [['owner', 'key'], ['key']] }];
    await store.registerProjection('books', spec);
    expect(indexesOf(file, 'rm_lines_g1')).toEqual(['rm_lines_g1__key', 'rm_lines_g1__owner_key']);
    const shadow = await store.createShadowGeneration('books');
    const line = (id: string, owner: string, key: string): DocumentWrite => ({ kind: 'put', collection: 'lines', doc: { id, owner, key } as Doc });
    await store.commitProjection({
      projection: 'books',
      generation: shadow,
      checkpoint: 3,
      streamRevisions: {},
      writes: [line('c', 'co_1', '3'), line('a', 'co_2', '1'), line('b', 'co_1', '2')],
    });
    expect(indexesOf(file, `rm_lines_g${shadow}`)).toEqual([]);
    // A restart while the rebuild runs (registerProjection again) leaves the shadow without them too.
    await store.registerProjection('books', spec);
    expect(indexesOf(file, `rm_lines_g${shadow}`)).toEqual([]);
    expect(await store.generationReader('books', shadow).find('lines', { filter: { owner: 'co_1' }, sort: [{ field: 'key', direction: 'desc' }] })).toEqual([
      { id: 'c', owner: 'co_1', key: '3' },
      { id: 'b', owner: 'co_1', key: '2' },
    ]);

    await store.activateGeneration('books', shadow);
    expect(indexesOf(file, `rm_lines_g${shadow}`)).toEqual([`rm_lines_g${shadow}__key`, `rm_lines_g${shadow}__owner_key`]);
    expect(await store.find('lines', { filter: { owner: 'co_1' }, sort: [{ field: 'key', direction: 'desc' }] })).toEqual([
      { id: 'c', owner: 'co_1', key: '3' },
      { id: 'b', owner: 'co_1', key: '2' },
    ]);
    await store.close();
  });

  it('drops an index the collection no longer declares (a widened one) at start, and keeps unique indexes and documents', async () => {
    const file = join(tempDir('undeclared-indexes'), 'read.db');
    const before = new SqliteReadStore(file);
    await before.registerProjection('books', [{ name: 'lines', indexes: [['owner', 'status'], ['key']], unique: ['key'] }]);
    await before.commitProjection({
      projection: 'books',
      generation: 1,
      checkpoint: 1,
      streamRevisions: {},
      writes: [{ kind: 'put', collection: 'lines', doc: { id: 'a', owner: 'co_1', status: 'open', key: '1' } as Doc }],
    });
    await before.close();

    const after = new SqliteReadStore(file);
    try {
      await after.registerProjection('books', [{ name: 'lines', indexes: [['owner', 'status', 'key'], ['key']], unique: ['key'] }]);
      expect(indexesOf(file, 'rm_lines_g1')).toEqual(['rm_lines_g1__key', 'rm_lines_g1__owner_status_key', 'rm_lines_g1__unique__key']);
      expect(await after.find('lines', { filter: { owner: 'co_1', status: 'open' } })).toEqual([{ id: 'a', owner: 'co_1', status: 'open', key: '1' }]);
    } finally {
      await after.close(); // a failed expectation must not leave the store's threads holding jest open
    }
  });
});
