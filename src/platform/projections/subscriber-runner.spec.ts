import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { NewEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { createLogger } from '../logging/app-logger';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { EventProcessor } from './projection';
import { SubscriberRunner } from './subscriber-runner';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const event = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  data: {},
  metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
});

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
    const runner = new SubscriberRunner(processor, events, store, createLogger('silent'), {
      owner: 'test',
      leaseMs: 10_000,
      catchUpBatchSize: 500,
      retryDelayMs: () => 300,
      realNowMs: () => Date.now(),
    });
    await runner.register();
    runner.start();
    await sleep(50);
    const thing = await events.append('thing-1', [event('thing.happened')], 'no_stream');
    await sleep(3);
    // Arrives while the failing batch is being processed: it must not carry the checkpoint past it.
    const other = await events.append('other-1', [event('other.happened')], 'no_stream');
    for (let waited = 0; waited < 5_000 && (await store.streamRevisionOf('flaky', 1, 'thing-1')) === null; waited += 50) await sleep(50);
    await runner.stop();
    expect(processed).toEqual([thing.position, thing.position]);
    expect(await store.streamRevisionOf('flaky', 1, 'thing-1')).toBe(0);
    expect(await store.checkpointOf('flaky', 1)).toBe(other.position);
    await events.close();
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
    const options = { owner: 'test', leaseMs: 10_000, catchUpBatchSize: 500, retryDelayMs: () => 300, realNowMs: () => Date.now() };
    const first = new SubscriberRunner(processor, events, store, createLogger('silent'), options);
    await first.register();
    const appended = await events.append('thing-1', [event('thing.happened')], 'no_stream');
    first.start();
    for (let waited = 0; waited < 5_000 && (await store.checkpointOf('recovering', 1)) === null; waited += 50) await sleep(50);
    await first.stop();
    const second = new SubscriberRunner(processor, events, store, createLogger('silent'), options);
    second.start();
    for (let waited = 0; waited < 5_000 && calls.length < 3; waited += 50) await sleep(50);
    await second.stop();
    expect(calls).toEqual(['recover from null', `process ${appended.position}`, `recover from ${appended.position}`]);
    await events.close();
    await store.close();
  });
});
