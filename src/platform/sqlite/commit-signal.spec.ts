import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { appendFileSync } from 'node:fs';
import { CommitSignal, watchCommitSignal } from './commit-signal';

/** What another connection (another process, in production) can read each time a store signals. */
function recordOnSignal(read: () => unknown): unknown[] {
  const seen: unknown[] = [];
  jest.spyOn(CommitSignal.prototype, 'signal').mockImplementation(() => {
    seen.push(read());
  });
  return seen;
}

afterEach(() => jest.restoreAllMocks());

describe('CommitSignal', () => {
  it("wakes a watcher of the database's file, which the WAL's own writes do not", async () => {
    const file = join(tempDir('commit-signal'), 'read.db');
    const signal = new CommitSignal(file);
    let wakes = 0;
    let woken!: () => void;
    const stop = watchCommitSignal(file, () => {
      wakes++;
      woken();
    });
    appendFileSync(`${file}-wal`, 'frames of a commit not yet readable');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(wakes).toBe(0);
    await new Promise<void>((resolve) => {
      woken = resolve;
      signal.signal();
    });
    expect(wakes).toBe(1);
    stop();
    signal.close();
  });

  it('is given by the read store once a projection commit can be read by another connection', async () => {
    const file = join(tempDir('read-store-signal'), 'read.db');
    const store = new SqliteReadStore(file);
    await store.registerProjection('things', [{ name: 'things' }]);
    const other = new Database(file, { readonly: true });
    const seen = recordOnSignal(() => other.prepare("SELECT checkpoint FROM projection_generations WHERE name = 'things'").get());
    await store.commitProjection({ projection: 'things', generation: 1, checkpoint: 7, streamRevisions: { 't-1': 0 }, writes: [] });
    expect(seen).toEqual([{ checkpoint: 7 }]);
    other.close();
    await store.close();
  });

  it.each(['event-loop', 'writer-thread'] as const)('is given by the event store once an append can be read by another connection (commits on the %s)', async (commitOn) => {
    const file = join(tempDir(`event-store-signal-${commitOn}`), 'events.db');
    const store = new SqliteEventStore(file, { commitOn });
    const other = new Database(file, { readonly: true });
    const seen = recordOnSignal(() => other.prepare('SELECT stream_id FROM events ORDER BY position DESC LIMIT 1').get());
    await store.append(
      'thing-1',
      [{ id: randomUUID(), type: 'thing.happened', data: {}, metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' } }],
      'no_stream',
    );
    expect(seen).toEqual([{ stream_id: 'thing-1' }]);
    other.close();
    await store.close();
  });
});
