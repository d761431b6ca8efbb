import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { tempDir } from '../../../../test/support/temp-dir';
import { NewEvent, RecordedEvent, Subscription } from '../event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

/**
 * Subscribers are woken by appends, never by their fallback poll: these subscriptions poll once an hour, so
 * an event they see within the test's time came through a wake.
 */
const AN_HOUR = 3_600_000;

const event = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  data: {},
  metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not woken: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('SqliteEventStore subscriptions are woken, not polled', () => {
  it('wakes every subscriber of the worker for the api process’s appends and for the commands its own process manager chains on them', async () => {
    const file = join(tempDir('subscription-wakes'), 'events.db');
    const worker = new SqliteEventStore(file, { pollIntervalMs: AN_HOUR });
    const api = new SqliteEventStore(file, { commitOn: 'writer-thread', pollIntervalMs: AN_HOUR });
    const seen: Set<string>[] = Array.from({ length: 6 }, () => new Set());
    const subscriptions: Subscription[] = seen.map((keys, index) =>
      worker.subscribeToAll(null, async (e: RecordedEvent) => {
        keys.add(`${e.streamId}/${e.type}`);
        // Subscriber 0 is a process manager: each request becomes two commands, the second chained on the first.
        if (index === 0 && e.type === 'requested') {
          await worker.append(`${e.streamId}-pm`, [event('paid')], 'any');
          await worker.append(`${e.streamId}-pm`, [event('settled')], 'any');
        }
      }),
    );
    const streams = Array.from({ length: 40 }, (_, i) => `split-${i}`);
    for (const stream of streams) {
      await api.append(stream, [event('requested')], 'no_stream');
      await new Promise((resolve) => setTimeout(resolve, stream.endsWith('7') ? 3 : 0));
    }
    const expected = streams.flatMap((s) => [`${s}/requested`, `${s}-pm/paid`, `${s}-pm/settled`]);
    await until(() => seen.every((keys) => expected.every((key) => keys.has(key))), 'a subscriber still misses events');
    await Promise.all(subscriptions.map((s) => s.stop()));
    await api.close();
    await worker.close();
  });

  it('wakes subscribers for a commit by a writer that sends no commit signal (an older version, a tool)', async () => {
    const file = join(tempDir('subscription-unsignalled'), 'events.db');
    const events = new SqliteEventStore(file, { pollIntervalMs: AN_HOUR });
    const seen: number[] = [];
    const subscription = events.subscribeToAll(null, async (e) => void seen.push(e.position));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the subscriber is asleep
    const tool = new Database(file);
    tool.prepare(`INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES ('tool-1', 0, ?, 'tool.wrote', '{}', '{}')`).run(randomUUID());
    tool.close();
    await until(() => seen.length === 1, 'the unsignalled commit was not seen');
    await subscription.stop();
    await events.close();
  });

  it('answers a caught-up reader from memory until a commit is told of, and is told of a commit by a writer that signals nothing', async () => {
    const file = join(tempDir('subscription-known-head'), 'events.db');
    const events = new SqliteEventStore(file, { pollIntervalMs: AN_HOUR });
    await events.append('split-1', [event('requested')], 'no_stream');
    const seen: number[] = [];
    const subscription = events.subscribeToAll(null, async (e) => void seen.push(e.position));
    await until(() => seen.length === 1, 'the first event was not read');
    expect(await events.readAll({ after: 1 })).toEqual([]);

    const tool = new Database(file);
    tool.prepare(`INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES ('tool-1', 0, ?, 'tool.wrote', '{}', '{}')`).run(randomUUID());
    tool.close();
    // Not told of yet (the data_version check runs every 25 ms): the end read before still answers.
    expect(await events.readAll({ after: 1 })).toEqual([]);
    await until(() => seen.length === 2, 'the unsignalled commit was not seen');
    expect((await events.readAll({ after: 1 })).map((e) => e.type)).toEqual(['tool.wrote']);

    // This process's own append is told of at once: the next read goes to the file.
    await events.append('split-2', [event('requested')], 'no_stream');
    expect((await events.readAll({ after: 2 })).map((e) => e.streamId)).toEqual(['split-2']);
    await subscription.stop();
    await events.close();
  });
});
