import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { tempDir } from '../../../../test/support/temp-dir';
import { ConcurrencyError, NewEvent } from '../event-store.port';
import { prefixedReadSql, SqliteEventStore } from './sqlite-event-store';

const event = (): NewEvent => ({
  id: randomUUID(),
  type: 'thing.happened',
  data: {},
  metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
});

describe('SqliteEventStore group commit', () => {
  it.each(['event-loop', 'writer-thread'] as const)(
    'fails every append of a group when SQLite rolls the whole transaction back, storing none (commits on the %s)',
    async (commitOn) => {
      const file = join(tempDir('group-commit'), 'events.db');
      const events = new SqliteEventStore(file, { commitOn });
      // Stands in for a disk-full or I/O error: SQLite abandons the transaction, not just the savepoint.
      const other = new Database(file);
      other.exec(`CREATE TRIGGER abandon BEFORE INSERT ON events WHEN NEW.stream_id = 'bad-1' BEGIN SELECT RAISE(ROLLBACK, 'abandoned'); END`);
      other.close();
      const results = await Promise.allSettled([
        events.append('good-1', [event()], 'no_stream'),
        events.append('bad-1', [event()], 'no_stream'),
        events.append('good-2', [event()], 'no_stream'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const r of results) expect(String((r as PromiseRejectedResult).reason)).toContain('abandoned');
      expect(await events.readAll()).toEqual([]);
      const after = await events.append('good-3', [event()], 'no_stream');
      expect((await events.readStream('good-3'))[0]!.position).toBe(after.position);
      await events.close();
    },
  );
});

describe('SqliteEventStore writer thread with two groups in flight', () => {
  it("commits a turn's second group after its first: an append expecting a revision the first group writes succeeds", async () => {
    const events = new SqliteEventStore(join(tempDir('two-in-flight'), 'events.db'), { commitOn: 'writer-thread' });
    // Eight appends fill the first group (sent at once); the ninth expects the eighth's event, in the second group.
    const first = Array.from({ length: 8 }, (_, n) => events.append(`s-${n}`, [event()], 'no_stream'));
    const second = events.append('s-7', [event()], 0);
    const results = await Promise.all([...first, second]);
    expect(results.map((r) => r.position)).toEqual(Array.from({ length: 9 }, (_, n) => n + 1));
    expect((await events.readStream('s-7')).map((e) => e.revision)).toEqual([0, 1]);
    await events.close();
  });
});

describe('SqliteEventStore idempotent replay', () => {
  it.each(['event-loop', 'writer-thread'] as const)(
    'refuses an append whose later event id is already stored (and only that one) as a conflict, storing none of it (commits on the %s)',
    async (commitOn) => {
      const events = new SqliteEventStore(join(tempDir('replay-later-id'), 'events.db'), { commitOn });
      const taken = event();
      await events.append('owner-1', [taken], 'no_stream');
      const outcome = events.append('other-1', [event(), taken], 'no_stream');
      await expect(outcome).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(outcome).rejects.toMatchObject({ streamId: 'other-1', expected: 'any' });
      expect(await events.readStream('other-1')).toEqual([]);
      // The whole append again, first event included, is still refused; a replay of the stored one is not.
      await expect(events.append('owner-1', [taken], 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0 });
      await events.close();
    },
  );
});

describe('SqliteEventStore group commit without savepoints', () => {
  it.each(['event-loop', 'writer-thread'] as const)(
    'stores the other appends of a group whole when one throws after its first insert, and nothing of that one (commits on the %s)',
    async (commitOn) => {
      const events = new SqliteEventStore(join(tempDir('group-throws'), 'events.db'), { commitOn });
      const taken = event();
      await events.append('owner-1', [taken], 'no_stream');
      // One group: the middle append inserts its first event, then hits the taken id's UNIQUE index.
      const results = await Promise.allSettled([
        events.append('good-1', [event(), event()], 'no_stream'),
        events.append('other-1', [event(), taken, event()], 'no_stream'),
        events.append('good-2', [event(), event()], 'no_stream'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
      expect(await events.readStream('other-1')).toEqual([]);
      expect((await events.readStream('good-1')).map((e) => e.revision)).toEqual([0, 1]);
      expect((await events.readStream('good-2')).map((e) => e.revision)).toEqual([0, 1]);
      const positions = (await events.readAll()).map((e) => e.position);
      // The rolled-back append took no position: the log stays contiguous (EventStore.contiguousPositions).
      expect(positions).toEqual([1, 2, 3, 4, 5]);
      expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<{ position: number }>).value.position)).toEqual([positions[2], positions[4]]);
      await events.close();
    },
  );
});

describe('SqliteEventStore readAll with stream prefixes', () => {
  it('returns only the events of matching streams, all of them, in position order, from after', async () => {
    const events = new SqliteEventStore(join(tempDir('prefixed-read'), 'events.db'));
    // 'split.' and 'splitx' sort right after every 'split-' id: the bound must exclude them.
    for (const stream of ['split-1', 'order-1', 'split.x', 'splitx-1', 'split-2', 'payout-1', 'split-1']) {
      const head = (await events.readStream(stream)).length - 1;
      await events.append(stream, [event()], head < 0 ? 'no_stream' : head);
    }
    const all = await events.readAll();
    const read = await events.readAll({ streamPrefixes: ['split-', 'payout-'] });
    expect(read.map((e) => `${e.streamId}#${e.revision}`)).toEqual(['split-1#0', 'split-2#0', 'payout-1#0', 'split-1#1']);
    expect(read.map((e) => e.position)).toEqual(all.filter((e) => ['split-1', 'split-2', 'payout-1'].includes(e.streamId)).map((e) => e.position));
    const later = await events.readAll({ after: read[1]!.position, maxCount: 1, streamPrefixes: ['split-', 'payout-'] });
    expect(later.map((e) => e.streamId)).toEqual(['payout-1']);
    expect(await events.readAll({ streamPrefixes: [] })).toEqual([]);
    await events.close();
  });

  it('walks the position range, never sorting every later event of a prefix to return one batch', async () => {
    const file = join(tempDir('prefixed-read-plan'), 'events.db');
    const events = new SqliteEventStore(file);
    await events.append('split-1', [event()], 'no_stream');
    await events.close();
    const db = new Database(file, { readonly: true });
    const plans = [1, 2, 3, 4].map((prefixes) => {
      const params = [0, ...Array.from({ length: prefixes }, () => ['split-', 'split.']).flat(), 5000];
      return db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${prefixedReadSql(prefixes)}`)
        .all(...params)
        .map((step) => step.detail);
    });
    db.close();
    // One prefix was planned on the (stream_id, revision) index, then a sort of every match: each batch of a rebuild cost the rest of the log.
    for (const plan of plans) expect(plan).toEqual(['SEARCH events USING INTEGER PRIMARY KEY (rowid>?)']);
  });
});

describe('SqliteEventStore commit timing, on the event loop (the worker)', () => {
  it('commits an append requested by code a commit resumed without waiting for a turn of the event loop', async () => {
    const events = new SqliteEventStore(join(tempDir('chained-commits'), 'events.db'));
    await events.append('chain-1', [event()], 'no_stream');
    let turned = false;
    setImmediate(() => (turned = true));
    for (let revision = 0; revision < 5; revision++) await events.append('chain-1', [event()], revision);
    expect(turned).toBe(false);
    expect(await events.readStream('chain-1')).toHaveLength(6);
    await events.close();
  });
});

describe('SqliteEventStore commit timing, on the writer thread (the api)', () => {
  const commitsOf = (events: SqliteEventStore) => {
    const emitted = jest.fn();
    (events as unknown as { appended: import('node:events').EventEmitter }).appended.on('append', emitted);
    return emitted;
  };

  it('keeps the event loop turning while a commit waits, and reads the appended events once the append resolves', async () => {
    // The commit is held up by another connection's write lock, so it certainly lasts while the loop turns.
    // (Racing a setImmediate against a fast fsync was flaky: Node hands a worker's reply that arrives while
    // its port's messages are being handled to the same turn.) On the event loop, the commit would block
    // the loop for the busy timeout and fail before the timer below could fire.
    const file = join(tempDir('loop-turns'), 'events.db');
    const events = new SqliteEventStore(file, { commitOn: 'writer-thread' });
    await events.append('warm-1', [event()], 'no_stream');
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const appended = events.append('turn-1', [event()], 'no_stream').finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false); // 50 ms of timers ran while the commit waited off the event loop
    other.exec('ROLLBACK');
    other.close();
    const { position } = await appended;
    expect((await events.readStream('turn-1')).map((e) => e.position)).toEqual([position]);
    await events.close();
  });

  it('lets appends requested in separate turns of the event loop wait for the next one, and commits them together', async () => {
    const events = new SqliteEventStore(join(tempDir('grouped-commits'), 'events.db'), { commitOn: 'writer-thread' });
    const appends = await new Promise<Promise<{ position: number }>[]>((resolve) => {
      const started: Promise<{ position: number }>[] = [];
      setImmediate(() => started.push(events.append('group-1', [event()], 'no_stream')));
      setImmediate(() => {
        started.push(events.append('group-2', [event()], 'no_stream'));
        resolve(started);
      });
    });
    const commits = commitsOf(events);
    await Promise.all(appends);
    expect(commits).toHaveBeenCalledTimes(1); // one commit for both
    await events.close();
  });

  it('sends the appends requested while a group is in the thread together in the next commit, in request order', async () => {
    const events = new SqliteEventStore(join(tempDir('queued-commits'), 'events.db'), { commitOn: 'writer-thread' });
    const commits = commitsOf(events);
    const first = events.append('queued-1', [event()], 'no_stream');
    await new Promise((resolve) => setImmediate(resolve)); // the first group is in the thread now
    const rest = [events.append('queued-2', [event()], 'no_stream'), events.append('queued-1', [event()], 0), events.append('queued-3', [event()], 'no_stream')];
    const positions = (await Promise.all([first, ...rest])).map((r) => r.position);
    expect(commits).toHaveBeenCalledTimes(2);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    await events.close();
  });

  it('rejects only the append whose expected revision is wrong, with a ConcurrencyError, and stores the others', async () => {
    const events = new SqliteEventStore(join(tempDir('conflict-in-group'), 'events.db'), { commitOn: 'writer-thread' });
    await events.append('taken-1', [event()], 'no_stream');
    const results = await Promise.allSettled([
      events.append('free-1', [event()], 'no_stream'),
      events.append('taken-1', [event()], 'no_stream'),
      events.append('taken-1', [event()], 0),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const conflict = (results[1] as PromiseRejectedResult).reason as ConcurrencyError;
    expect(conflict).toBeInstanceOf(ConcurrencyError);
    expect([conflict.streamId, conflict.expected, conflict.actual]).toEqual(['taken-1', 'no_stream', 0]);
    expect((await events.readStream('taken-1')).map((e) => e.revision)).toEqual([0, 1]);
    await events.close();
  });

  it('stores every append requested before close, then stops the writer thread', async () => {
    const file = join(tempDir('close-drains'), 'events.db');
    const events = new SqliteEventStore(file, { commitOn: 'writer-thread' });
    const appends = Array.from({ length: 20 }, (_, i) => events.append(`drain-${i}`, [event()], 'no_stream'));
    await events.close();
    await expect(Promise.all(appends)).resolves.toHaveLength(20);
    const reopened = new SqliteEventStore(file);
    expect(await reopened.readAll()).toHaveLength(20);
    await reopened.close();
  });
});
