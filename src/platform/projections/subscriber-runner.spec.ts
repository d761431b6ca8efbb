import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { NewEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { createLogger } from '../logging/app-logger';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { holdFsyncs } from '../../../test/support/held-fsyncs';
import { EventProcessor, Projection } from './projection';
import { SubscriberRunner } from './subscriber-runner';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const event = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  data: {},
  metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
});

/** A runner that retries every 300 ms. */
const runnerOptions = { owner: 'test', leaseMs: 10_000, catchUpBatchSize: 500, retryDelayMs: () => 300, realNowMs: () => Date.now() };

describe('SubscriberRunner', () => {
  it('retries an event whose processing failed, even when events of other streams came right after it', async () => {
    const dir = tempDir('runner');
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const store = new SqliteReadStore(join(dir, 'read.db'));
    const processed: number[] = [];
    let failOnce = true;
    const processor: EventProcessor = {
      name: 'flaky',
      streams: ['thing-'],
      handles: (e) => e.type === 'thing.happened',
      async process(e) {
        processed.push(e.position);
        await sleep(10);
        if (failOnce) {
          failOnce = false;
          throw new Error('transient failure');
        }
      },
    };
    const runner = new SubscriberRunner(processor, events, store, createLogger('silent'), runnerOptions);
    await runner.register();
    runner.start();
    await sleep(50);
    const thing = await events.append('thing-1', [event('thing.happened')], 'no_stream');
    await sleep(3);
    // Arrives while the failing batch is being processed: it must not carry the checkpoint past it.
    const other = await events.append('other-1', [event('other.happened')], 'no_stream');
    for (let waited = 0; waited < 5_000 && (await store.checkpointOf('flaky', 1)) !== other.position; waited += 50) await sleep(50);
    await runner.stop();
    expect(processed).toEqual([thing.position, thing.position]);
    expect(await store.checkpointOf('flaky', 1)).toBe(other.position);
    // On SQLite (contiguous positions) the runner finds gaps by position and stores no stream revision.
    expect(await store.streamRevisionOf('flaky', 1, 'thing-1')).toBeNull();
    await events.close();
    await store.close();
  });

  it('stalls, applying nothing from it on, on a hole in the positions of the log, though no stream it reads misses an event', async () => {
    const dir = tempDir('runner-hole');
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const first = await events.append('thing-1', [event('thing.happened')], 'no_stream');
    const lost = await events.append('other-1', [event('other.happened')], 'no_stream');
    await events.append('thing-2', [event('thing.happened')], 'no_stream');
    await events.close();
    const file = new Database(join(dir, 'events.db'));
    file.prepare('DELETE FROM events WHERE position = ?').run(lost.position); // an event of a stream nobody here reads
    file.close();
    const reopened = new SqliteEventStore(join(dir, 'events.db'));
    const store = new SqliteReadStore(join(dir, 'read.db'));
    const processed: string[] = [];
    const processor: EventProcessor = { name: 'holes', streams: ['thing-'], handles: () => true, process: async (e) => void processed.push(e.streamId) };
    const runner = new SubscriberRunner(processor, reopened, store, createLogger('silent'), runnerOptions);
    await runner.register();
    runner.start();
    for (let waited = 0; waited < 5_000 && (await store.projectionState('holes')).status !== 'stalled'; waited += 50) await sleep(50);
    await runner.stop();
    const state = await store.projectionState('holes');
    expect(state.status).toBe('stalled');
    expect(state.error).toContain(`the log jumps from position ${first.position} to ${lost.position + 1}`);
    expect(processed).not.toContain('thing-2');
    expect(await store.checkpointOf('holes', 1)).toBeNull();
    await reopened.close();
    await store.close();
  });

  it('lets a processor recover with its stored checkpoint before it follows the log', async () => {
    const dir = tempDir('runner-recover');
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const store = new SqliteReadStore(join(dir, 'read.db'));
    const calls: string[] = [];
    const processor: EventProcessor = {
      name: 'recovering',
      streams: ['thing-'],
      handles: () => true,
      async process(e) {
        calls.push(`process ${e.position}`);
      },
      async recover(checkpoint) {
        calls.push(`recover from ${checkpoint}`);
      },
    };
    const first = new SubscriberRunner(processor, events, store, createLogger('silent'), runnerOptions);
    await first.register();
    const appended = await events.append('thing-1', [event('thing.happened')], 'no_stream');
    first.start();
    for (let waited = 0; waited < 5_000 && (await store.checkpointOf('recovering', 1)) === null; waited += 50) await sleep(50);
    await first.stop();
    const second = new SubscriberRunner(processor, events, store, createLogger('silent'), runnerOptions);
    second.start();
    for (let waited = 0; waited < 5_000 && calls.length < 3; waited += 50) await sleep(50);
    await second.stop();
    expect(calls).toEqual(['recover from null', `process ${appended.position}`, `recover from ${appended.position}`]);
    await events.close();
    await store.close();
  });

  describe('a read model applies the next events while its last commit is being fsynced (ProjectionCommit.beforeDisk)', () => {
    const things: Projection = {
      name: 'things',
      streams: ['thing-'],
      collections: [{ name: 'things' }],
      handles: (e) => e.type === 'thing.happened',
      async apply(e, writer) {
        writer.put('things', { id: e.streamId, position: e.position });
      },
    };
    const options = { owner: 'test', leaseMs: 10_000, catchUpBatchSize: 500, retryDelayMs: () => 50, realNowMs: () => Date.now() };
    const until = async (done: () => Promise<boolean>) => {
      for (let waited = 0; waited < 5_000 && !(await done()); waited += 20) await sleep(20);
    };

    /** The `things` read model's runner, started on fresh files, with every fsync from then on held; `end` releases and closes everything. */
    async function startedWithHeldFsyncs(name: string, logger = createLogger('silent')) {
      const dir = tempDir(name);
      const events = new SqliteEventStore(join(dir, 'events.db'));
      const store = new SqliteReadStore(join(dir, 'read.db'));
      const runner = new SubscriberRunner(things, events, store, logger, options);
      await runner.register();
      runner.start();
      const fsyncs = holdFsyncs();
      const end = async () => {
        jest.restoreAllMocks();
        fsyncs.releaseAll();
        await runner.stop();
        await events.close();
        await store.close();
      };
      return { events, store, fsyncs, end };
    }

    it('given the fsync of its first commit is held, when more events come, then they are applied and readable meanwhile', async () => {
      const { events, store, fsyncs, end } = await startedWithHeldFsyncs('runner-before-disk');
      try {
        await events.append('thing-1', [event('thing.happened')], 'no_stream');
        await until(async () => (await store.get('things', 'thing-1')) !== null);
        const second = await events.append('thing-2', [event('thing.happened')], 'no_stream');
        await until(async () => (await store.checkpointOf('things', 1)) === second.position);
        expect(await store.get('things', 'thing-2')).toEqual({ id: 'thing-2', position: second.position });
        expect(fsyncs.calls()).toBeGreaterThanOrEqual(1);
      } finally {
        await end();
      }
    });

    it('when an fsync under its commit fails, then it logs the failure, reloads from the stored checkpoint and goes on', async () => {
      const logger = createLogger('silent');
      const errors = jest.spyOn(logger, 'error');
      const { events, store, fsyncs, end } = await startedWithHeldFsyncs('runner-unsynced', logger);
      try {
        await events.append('thing-1', [event('thing.happened')], 'no_stream');
        await until(async () => fsyncs.calls() > 0);
        fsyncs.failOne();
        await until(async () => errors.mock.calls.length > 0);
        expect(errors.mock.calls[0]![1]).toBe('a read-model commit could not be fsynced; reloading from the stored checkpoint');
        jest.restoreAllMocks();
        const second = await events.append('thing-2', [event('thing.happened')], 'no_stream');
        await until(async () => (await store.checkpointOf('things', 1)) === second.position);
        expect(await store.get('things', 'thing-1')).not.toBeNull();
        expect(await store.get('things', 'thing-2')).toEqual({ id: 'thing-2', position: second.position });
      } finally {
        await end();
      }
    });
  });
});
