import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { NewEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { createLogger } from '../logging/app-logger';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { CheckpointBeyondLogError, assertCheckpointsWithinLog } from './checkpoints-within-log';
import { Projection } from './projection';
import { ProjectionEngine, ProjectionLagError } from './projection-engine';
import { rebuildProjection } from './rebuild-projection';

const thingMade = (): NewEvent => ({
  id: randomUUID(),
  type: 'thing.made',
  data: {},
  metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
});

/** Version 1 stored one document per thing; version 2 also counts them (what version 1 never wrote). */
const thingsV1: Projection = {
  name: 'things',
  streams: ['thing-'],
  collections: [{ name: 'thing_docs' }, { name: 'thing_counts' }],
  handles: () => true,
  async apply(event, writer) {
    writer.put('thing_docs', { id: event.streamId });
  },
};
const thingsV2: Projection = {
  ...thingsV1,
  version: 2,
  async apply(event, writer) {
    writer.put('thing_docs', { id: event.streamId });
    const count = (await writer.get<{ id: string; n: number }>('thing_counts', 'all'))?.n ?? 0;
    writer.put('thing_counts', { id: 'all', n: count + 1 });
  },
};

const options = { owner: 'test', leaseMs: 10_000, catchUpBatchSize: 500, retryDelayMs: () => 50, realNowMs: () => Date.now() };

async function open() {
  const dir = tempDir('projection-version');
  const events = new SqliteEventStore(join(dir, 'events.db'));
  const store = new SqliteReadStore(join(dir, 'read.db'));
  return { events, store };
}

/** A data dir written by the code of version 1: its read model is at the head of the log. */
async function builtByVersion1(events: SqliteEventStore, store: SqliteReadStore): Promise<number> {
  await store.registerProjection(thingsV1.name, thingsV1.collections);
  let head = 0;
  for (let i = 0; i < 3; i++) head = (await events.append(`thing-${i}`, [thingMade()], 'no_stream')).position;
  const engine = new ProjectionEngine(events, store, createLogger('silent'), options);
  engine.add(thingsV1);
  await engine.register();
  engine.start();
  await engine.waitForHead(5_000);
  await engine.stop();
  return head;
}

describe('projection versions', () => {
  it('records the version a new projection is built with, and counts a generation recorded without one as version 1', async () => {
    const { events, store } = await open();
    await store.registerProjection('fresh', [{ name: 'fresh_docs' }], 3);
    expect(await store.projectionState('fresh')).toMatchObject({ activeGeneration: 1, version: 3 });
    await store.registerProjection('fresh', [{ name: 'fresh_docs' }], 4);
    expect((await store.projectionState('fresh')).version).toBe(3);
    await builtByVersion1(events, store);
    expect((await store.projectionState('things')).version).toBe(1);
    await events.close();
    await store.close();
  });

  it('rebuilds at start, from the beginning of the log, a projection whose stored version is older than its code, and read-your-writes waits for it', async () => {
    const { events, store } = await open();
    const head = await builtByVersion1(events, store);
    expect(await store.get('thing_counts', 'all')).toBeNull();

    const engine = new ProjectionEngine(events, store, createLogger('silent'), options);
    engine.add(thingsV2);
    await engine.register();
    // Before the rebuild swaps in, the old generation's checkpoint (already at the head) does not count.
    await expect(engine.waitForPosition(head, 10, ['things'])).rejects.toThrow(ProjectionLagError);
    await expect(engine.waitForPosition(head, 10, ['things'])).rejects.toThrow('things (rebuilding: built by version 1)');
    expect((await engine.status())[0]).toMatchObject({ name: 'things', lag: head });
    engine.start();
    await engine.waitForHead(5_000);
    expect(await store.projectionState('things')).toMatchObject({ activeGeneration: 2, version: 2, checkpoint: head });
    expect(await store.get('thing_counts', 'all')).toEqual({ id: 'all', n: 3 });
    // And it then follows the log as usual.
    const next = await events.append('thing-9', [thingMade()], 'no_stream');
    await engine.waitForPosition(next.position, 5_000, ['things']);
    expect(await store.get('thing_counts', 'all')).toEqual({ id: 'all', n: 4 });
    await engine.stop();

    // Started again with the same code: nothing to rebuild.
    const again = new ProjectionEngine(events, store, createLogger('silent'), options);
    again.add(thingsV2);
    await again.register();
    again.start();
    await again.waitForHead(5_000);
    await again.stop();
    expect((await store.projectionState('things')).activeGeneration).toBe(2);
    await events.close();
    await store.close();
  });

  it('leaves alone a projection whose stored version is newer than its code (an older process during a deploy)', async () => {
    const { events, store } = await open();
    await builtByVersion1(events, store);
    await rebuildProjection(events, store, thingsV2, { nowMs: () => Date.now() });
    expect(await store.projectionState('things')).toMatchObject({ activeGeneration: 2, version: 2 });
    const engine = new ProjectionEngine(events, store, createLogger('silent'), options);
    engine.add(thingsV1);
    await engine.register();
    engine.start();
    await engine.waitForHead(5_000);
    await engine.stop();
    expect(await store.projectionState('things')).toMatchObject({ activeGeneration: 2, version: 2 });
    await events.close();
    await store.close();
  });

  it('projections:rebuild records the code version, so the runner does not rebuild again', async () => {
    const { events, store } = await open();
    await builtByVersion1(events, store);
    const result = await rebuildProjection(events, store, thingsV2, { nowMs: () => Date.now() });
    expect(await store.projectionState('things')).toMatchObject({ activeGeneration: result.generation, version: 2 });
    await events.close();
    await store.close();
  });

  it('still refuses to start (CHECKPOINT_BEYOND_LOG) when an outdated projection is ahead of the log, before any rebuild runs', async () => {
    const { events, store } = await open();
    const head = await builtByVersion1(events, store);
    await store.commitProjection({ projection: 'things', generation: 1, checkpoint: head + 5, streamRevisions: {}, writes: [] });
    const engine = new ProjectionEngine(events, store, createLogger('silent'), options);
    engine.add(thingsV2);
    await engine.register();
    await expect(assertCheckpointsWithinLog(events, store, ['things'])).rejects.toThrow(CheckpointBeyondLogError);
    // The check reads the stored state; registering the new code changed nothing there.
    expect(await store.projectionState('things')).toMatchObject({ activeGeneration: 1, version: 1, checkpoint: head + 5 });
    await events.close();
    await store.close();
  });
});
