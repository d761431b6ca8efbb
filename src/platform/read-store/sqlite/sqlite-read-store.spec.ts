import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../../test/support/temp-dir';
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
