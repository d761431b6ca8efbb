import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { Projection } from './projection';
import { RebuildAlreadyRunningError, rebuildProjection } from './rebuild-projection';

const things: Projection = {
  name: 'things',
  streams: ['thing-'],
  collections: [{ name: 'thing_docs' }],
  handles: () => true,
  async apply(event, writer) {
    writer.put('thing_docs', { id: event.streamId });
  },
};

/** The store as a live runner on EventStoreDB sees it: positions with holes, so revisions must be stored. */
function withPositionHoles(events: SqliteEventStore): SqliteEventStore {
  return Object.assign(Object.create(events) as SqliteEventStore, { contiguousPositions: false });
}

async function open() {
  const dir = tempDir('rebuild');
  const events = new SqliteEventStore(join(dir, 'events.db'));
  const store = new SqliteReadStore(join(dir, 'read.db'));
  for (let i = 0; i < 3; i++) {
    await events.append(
      `thing-${i}`,
      [{ id: randomUUID(), type: 'thing.made', data: {}, metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-01-01T00:00:00.000Z' } }],
      'no_stream',
    );
  }
  await store.registerProjection(things.name, things.collections);
  return { events, store };
}

describe('rebuildProjection', () => {
  it('drops the shadow an interrupted rebuild left, then rebuilds and swaps in a new generation', async () => {
    const { events, store } = await open();
    const interrupted = await store.createShadowGeneration(things.name);
    const discarded: number[][] = [];
    const result = await rebuildProjection(events, store, things, { nowMs: () => Date.now(), onDiscarded: (g) => discarded.push(g) });
    expect(discarded).toEqual([[interrupted]]);
    expect(result).toEqual({ generation: interrupted + 1, applied: 3 });
    expect((await store.projectionState(things.name)).activeGeneration).toBe(interrupted + 1);
    expect(await store.find('thing_docs')).toHaveLength(3);
    await events.close();
    await store.close();
  });

  it('refuses to start while another rebuild of the projection holds its lease, and leaves its shadow alone', async () => {
    const { events, store } = await open();
    await store.tryAcquireLease(`rebuild:${things.name}`, 'another-cli', Date.now(), 60_000);
    const theirs = await store.createShadowGeneration(things.name);
    await expect(rebuildProjection(events, store, things, { nowMs: () => Date.now() })).rejects.toBeInstanceOf(RebuildAlreadyRunningError);
    expect(await store.commitProjection({ projection: things.name, generation: theirs, checkpoint: 1, streamRevisions: {}, writes: [] })).toBe('committed');
    await store.releaseLease(`rebuild:${things.name}`, 'another-cli');
    await events.close();
    await store.close();
  });

  it('commits every batch as a shadow one (acknowledged before it is durable), and swaps in durably', async () => {
    const { events, store } = await open();
    const commits = jest.spyOn(store, 'commitProjection');
    const activations = jest.spyOn(store, 'activateGeneration');
    await rebuildProjection(events, store, things, { nowMs: () => Date.now(), batchSize: 1 });
    expect(commits.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(commits.mock.calls.every(([commit]) => commit.shadow === true)).toBe(true);
    expect(activations).toHaveBeenCalledTimes(1);
    await events.close();
    await store.close();
  });

  it('on a log whose positions have holes, stores every stream revision by the swap, though a batch commits none until the last', async () => {
    const { events, store } = await open();
    const occurred = { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-01-01T00:00:00.000Z' };
    await events.append('thing-1', [{ id: randomUUID(), type: 'thing.changed', data: {}, metadata: occurred }], 0);
    await events.append('other-1', [{ id: randomUUID(), type: 'other.made', data: {}, metadata: occurred }], 'no_stream');
    const { generation } = await rebuildProjection(withPositionHoles(events), store, things, { nowMs: () => Date.now(), batchSize: 2 });
    const revisions = await Promise.all(['thing-0', 'thing-1', 'thing-2', 'other-1'].map((stream) => store.streamRevisionOf(things.name, generation, stream)));
    expect(revisions).toEqual([0, 1, 0, null]);
    expect(await store.checkpointOf(things.name, generation)).toBe(5);
    await events.close();
    await store.close();
  });
  it('reads the log in parts of at most 250 events and commits once per batch of them', async () => {
    const { events, store } = await open();
    const occurred = { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-01-01T00:00:00.000Z' };
    for (let i = 0; i < 597; i += 3) {
      for (let t = 0; t < 3; t++) await events.append(`thing-${t}`, [{ id: randomUUID(), type: 'thing.changed', data: {}, metadata: occurred }], i / 3);
    }
    const reads = jest.spyOn(events, 'readAll');
    const commits = jest.spyOn(store, 'commitProjection');
    const { generation, applied } = await rebuildProjection(withPositionHoles(events), store, things, { nowMs: () => Date.now(), batchSize: 500 });
    expect(applied).toBe(600);
    expect(reads.mock.calls.every(([options]) => (options?.maxCount ?? 0) <= 250)).toBe(true);
    // 250 + 250 events, then the last 100: two batches, the revisions released with the last.
    expect(commits.mock.calls.map(([commit]) => [commit.checkpoint, Object.keys(commit.streamRevisions).length])).toEqual([
      [500, 0],
      [600, 3],
    ]);
    expect(await Promise.all([0, 1, 2].map((t) => store.streamRevisionOf(things.name, generation, `thing-${t}`)))).toEqual([199, 199, 199]);
    await events.close();
    await store.close();
  });

  describe('on a log of contiguous positions (SQLite)', () => {
    it('stores no stream revision: the live runner after the swap finds gaps by position', async () => {
      const { events, store } = await open();
      const occurred = { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-01-01T00:00:00.000Z' };
      await events.append('thing-1', [{ id: randomUUID(), type: 'thing.changed', data: {}, metadata: occurred }], 0);
      const commits = jest.spyOn(store, 'commitProjection');
      const { generation } = await rebuildProjection(events, store, things, { nowMs: () => Date.now(), batchSize: 2 });
      expect(commits.mock.calls.every(([commit]) => Object.keys(commit.streamRevisions).length === 0)).toBe(true);
      expect(await store.streamRevisionOf(things.name, generation, 'thing-1')).toBeNull();
      expect(await store.checkpointOf(things.name, generation)).toBe(4);
      expect(await store.find('thing_docs')).toHaveLength(3);
      await events.close();
      await store.close();
    });

    it("still stops on a hole in a stream's revisions, across batches, and swaps nothing in", async () => {
      const dir = tempDir('rebuild-hole');
      const events = new SqliteEventStore(join(dir, 'events.db'));
      const store = new SqliteReadStore(join(dir, 'read.db'));
      await store.registerProjection(things.name, things.collections);
      const occurred = { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-01-01T00:00:00.000Z' };
      for (let revision = 0; revision < 4; revision++) {
        await events.append('thing-1', [{ id: randomUUID(), type: 'thing.changed', data: {}, metadata: occurred }], revision === 0 ? 'no_stream' : revision - 1);
      }
      await events.close();
      const file = new Database(join(dir, 'events.db'));
      file.prepare('DELETE FROM events WHERE revision = 2').run(); // an event lost from the middle of the stream
      file.close();
      const reopened = new SqliteEventStore(join(dir, 'events.db'));
      const active = (await store.projectionState(things.name)).activeGeneration;
      await expect(rebuildProjection(reopened, store, things, { nowMs: () => Date.now(), batchSize: 1 })).rejects.toThrow('things: stream thing-1 jumps from revision 1 to 3');
      expect((await store.projectionState(things.name)).activeGeneration).toBe(active);
      await reopened.close();
      await store.close();
    });
  });

  it('renews its lease once ten seconds have passed, not after every batch, and stops once another has taken it', async () => {
    const { events, store } = await open();
    let now = 1_000_000;
    const renewals: number[] = [];
    const tryAcquireLease = store.tryAcquireLease.bind(store);
    store.tryAcquireLease = (name, owner, nowMs, ttlMs) => {
      if (owner !== 'another-cli') renewals.push(nowMs);
      return tryAcquireLease(name, owner, nowMs, ttlMs);
    };
    // Three batches of one event within the same second: the lease is taken once, never renewed.
    await rebuildProjection(events, store, things, { nowMs: () => now, batchSize: 1 });
    expect(renewals).toEqual([now]);

    // The first batch takes 61 s (the lease expired) and another CLI takes the lease meanwhile: the
    // renewal after the next batch fails, and the rebuild stops without swapping its shadow in.
    renewals.length = 0;
    const start = now;
    const active = (await store.projectionState(things.name)).activeGeneration;
    let batches = 0;
    const rebuild = rebuildProjection(events, store, things, {
      nowMs: () => now,
      batchSize: 1,
      onProgress: () => {
        if (++batches > 1) return;
        now += 61_000;
        void store.tryAcquireLease(`rebuild:${things.name}`, 'another-cli', now, 60_000);
      },
    });
    await expect(rebuild).rejects.toBeInstanceOf(RebuildAlreadyRunningError);
    expect(renewals).toEqual([start, start + 61_000]);
    expect(batches).toBe(1);
    expect((await store.projectionState(things.name)).activeGeneration).toBe(active);
    await events.close();
    await store.close();
  });
});
