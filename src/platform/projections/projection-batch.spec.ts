import { tempDir } from '../../../test/support/temp-dir';
import { RecordedEvent } from '../event-store/event-store.port';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { applyBatch, ProjectionGapError, UnlistedStreamError } from './projection-batch';
import { EventProcessor, Projection, ProcessorEffects } from './projection';

let position = 0;
const recorded = (streamId: string, revision: number, type = 'thing.happened'): RecordedEvent => ({
  id: `e${++position}`,
  type,
  data: { streamId, revision },
  metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
  streamId,
  revision,
  position,
});

/** Counts `thing.happened` events per stream of the `thing-` streams. */
const counter: Projection = {
  name: 'counter',
  streams: ['thing-'],
  collections: [{ name: 'counts' }],
  handles: (event) => event.type === 'thing.happened',
  async apply(event, writer) {
    const current = await writer.get<{ id: string; n: number }>('counts', event.streamId);
    writer.put('counts', { id: event.streamId, n: (current?.n ?? 0) + 1 });
  },
};

async function openStore() {
  const store = new SqliteReadStore(`${tempDir('batch')}/read.db`);
  await store.registerProjection(counter.name, counter.collections);
  return store;
}

describe('applyBatch', () => {
  it('applies events of the listed streams and only moves the checkpoint past the others', async () => {
    const store = await openStore();
    const mine = recorded('thing-1', 0);
    const other = recorded('order-9', 0, 'order.created');
    expect(await applyBatch(store, counter, 1, [mine, other])).toBe('committed');
    expect(await store.checkpointOf('counter', 1)).toBe(other.position);
    expect(await store.streamRevisionOf('counter', 1, 'thing-1')).toBe(0);
    expect(await store.streamRevisionOf('counter', 1, 'order-9')).toBeNull();
    expect(await store.get('counts', 'thing-1')).toEqual({ id: 'thing-1', n: 1 });
    await store.close();
  });

  it('skips a duplicate and stops on a gap in a listed stream', async () => {
    const store = await openStore();
    const first = recorded('thing-2', 0);
    await applyBatch(store, counter, 1, [first]);
    expect(await applyBatch(store, counter, 1, [{ ...first, position: ++position }])).toBe('committed');
    expect(await store.get('counts', 'thing-2')).toEqual({ id: 'thing-2', n: 1 });
    await expect(applyBatch(store, counter, 1, [recorded('thing-2', 2)])).rejects.toBeInstanceOf(ProjectionGapError);
    expect(await store.get('counts', 'thing-2')).toEqual({ id: 'thing-2', n: 1 });
    await store.close();
  });

  it("does not look up the revision of a stream's first event above the runner's checkpoint", async () => {
    const store = await openStore();
    const lookups = jest.spyOn(store, 'streamRevisionOf');
    const first = recorded('thing-3', 0);
    expect(await applyBatch(store, counter, 1, [first], { checkpoint: first.position - 1 })).toBe('committed');
    expect(lookups).not.toHaveBeenCalled();
    expect(await store.streamRevisionOf('counter', 1, 'thing-3')).toBe(0);
    expect(await store.get('counts', 'thing-3')).toEqual({ id: 'thing-3', n: 1 });
    await store.close();
  });

  it('commits nothing when another runner applied events past the checkpoint it read after', async () => {
    const store = await openStore();
    const first = recorded('thing-5', 0);
    // Another runner (it took the lease over) applied the stream's first event ...
    expect(await applyBatch(store, counter, 1, [first], { checkpoint: first.position - 1 })).toBe('committed');
    const next = recorded('thing-6', 0);
    // ... so this runner's batch, read after the older checkpoint, must not apply it again.
    expect(await applyBatch(store, counter, 1, [first, next], { checkpoint: first.position - 1 })).toBe('stale');
    expect(await store.get('counts', 'thing-5')).toEqual({ id: 'thing-5', n: 1 });
    expect(await store.get('counts', 'thing-6')).toBeNull();
    await store.close();
  });

  it('still looks up a first event at or below the checkpoint, and skips it when applied', async () => {
    const store = await openStore();
    const first = recorded('thing-4', 0);
    await applyBatch(store, counter, 1, [first]);
    const lookups = jest.spyOn(store, 'streamRevisionOf');
    expect(await applyBatch(store, counter, 1, [first], { checkpoint: first.position })).toBe('stale');
    expect(lookups).toHaveBeenCalledWith('counter', 1, 'thing-4');
    expect(await store.get('counts', 'thing-4')).toEqual({ id: 'thing-4', n: 1 });
    await store.close();
  });

  describe('with gaps found by position (a log of contiguous positions)', () => {
    it('applies a batch that follows the checkpoint, looking up and storing no stream revision', async () => {
      const store = await openStore();
      const lookups = jest.spyOn(store, 'streamRevisionOf');
      const before = position;
      const events = [recorded('thing-7', 0), recorded('order-1', 0, 'order.created'), { ...recorded('thing-7', 1), id: 'later' }];
      expect(await applyBatch(store, counter, 1, events, { checkpoint: before, gapsByPosition: true })).toBe('committed');
      expect(lookups).not.toHaveBeenCalled();
      expect(await store.streamRevisionOf('counter', 1, 'thing-7')).toBeNull();
      expect(await store.get('counts', 'thing-7')).toEqual({ id: 'thing-7', n: 2 });
      expect(await store.checkpointOf('counter', 1)).toBe(position);
      await store.close();
    });

    it('starts an empty checkpoint at position 1', async () => {
      const store = await openStore();
      const first: RecordedEvent = { ...recorded('thing-8', 0), position: 1 };
      expect(await applyBatch(store, counter, 1, [first], { checkpoint: null, gapsByPosition: true })).toBe('committed');
      await expect(applyBatch(store, counter, 1, [{ ...first, position: 2 }], { checkpoint: null, gapsByPosition: true })).rejects.toThrow(
        'counter: the log jumps from position none to 2',
      );
      await store.close();
    });

    it('stops on a hole in the positions, even between events of other streams, committing nothing', async () => {
      const store = await openStore();
      const before = position;
      const mine = recorded('thing-9', 0);
      position += 1; // a position nobody delivered
      const other = recorded('order-2', 0, 'order.created');
      const applying = applyBatch(store, counter, 1, [mine, other], { checkpoint: before, gapsByPosition: true });
      await expect(applying).rejects.toBeInstanceOf(ProjectionGapError);
      await expect(applying).rejects.toThrow(`the log jumps from position ${mine.position} to ${other.position}`);
      expect(await store.checkpointOf('counter', 1)).toBeNull();
      expect(await store.get('counts', 'thing-9')).toBeNull();
      await store.close();
    });

    it('refuses a batch that does not start right after the checkpoint: a repeat or a skip', async () => {
      const store = await openStore();
      const event = recorded('thing-10', 0);
      for (const checkpoint of [event.position, event.position - 2]) {
        await expect(applyBatch(store, counter, 1, [event], { checkpoint, gapsByPosition: true })).rejects.toBeInstanceOf(ProjectionGapError);
      }
      expect(await store.get('counts', 'thing-10')).toBeNull();
      await store.close();
    });
  });

  it('refuses an event it handles from a stream it does not list, committing nothing', async () => {
    const store = await openStore();
    const stray = recorded('elsewhere-1', 0);
    await expect(applyBatch(store, counter, 1, [recorded('thing-3', 0), stray])).rejects.toBeInstanceOf(UnlistedStreamError);
    expect(await store.checkpointOf('counter', 1)).toBeNull();
    await store.close();
  });

  it('defers a batch with nothing from its streams when asked, and commits it otherwise', async () => {
    const store = await openStore();
    const others = [recorded('order-1', 0, 'order.created'), recorded('order-2', 0, 'order.created')];
    expect(await applyBatch(store, counter, 1, others, { deferCheckpointOnly: true })).toBe('deferred');
    expect(await store.checkpointOf('counter', 1)).toBeNull();
    expect(await applyBatch(store, counter, 1, others)).toBe('committed');
    expect(await store.checkpointOf('counter', 1)).toBe(others[1]!.position);
    await store.close();
  });

  it("stores a process manager's staged timers with its checkpoint", async () => {
    const store = await openStore();
    const reminder: EventProcessor = {
      name: 'reminder',
      streams: ['thing-'],
      handles: () => true,
      async process(event, effects: ProcessorEffects) {
        effects.scheduleTimer({ id: `remind:${event.streamId}`, kind: 'remind', dueAt: '2026-01-02T00:00:00.000Z', payload: { streamId: event.streamId } });
      },
    };
    await store.registerProjection(reminder.name, []);
    const event = recorded('thing-4', 0);
    expect(await applyBatch(store, reminder, 1, [event])).toBe('committed');
    expect(await store.timerStatus('remind:thing-4')).toEqual({ status: 'scheduled', attempts: 0, lastError: null });
    expect(await store.checkpointOf('reminder', 1)).toBe(event.position);
    await store.close();
  });

  it("calls a processor's beforeCheckpoint after its events are processed and before the checkpoint is committed", async () => {
    const store = await openStore();
    const seen: string[] = [];
    const marking: EventProcessor = {
      name: 'marking',
      streams: ['thing-'],
      handles: (event) => event.streamId.startsWith('thing-'),
      async process(event) {
        seen.push(`process ${event.position}`);
      },
      async beforeCheckpoint(checkpoint) {
        seen.push(`mark ${checkpoint}, stored checkpoint ${await store.checkpointOf('marking', 1)}`);
      },
    };
    await store.registerProjection(marking.name, []);
    const [first, second] = [recorded('thing-5', 0), recorded('thing-5', 1)];
    expect(await applyBatch(store, marking, 1, [first, second])).toBe('committed');
    expect(seen).toEqual([`process ${first.position}`, `process ${second.position}`, `mark ${second.position}, stored checkpoint null`]);
    expect(await store.checkpointOf('marking', 1)).toBe(second.position);
    // A batch with nothing of its streams, deferred, moves no mark.
    expect(await applyBatch(store, marking, 1, [recorded('other-1', 0)], { deferCheckpointOnly: true })).toBe('deferred');
    expect(seen).toHaveLength(3);
    await store.close();
  });

  it('processes the partitions of a partitioned processor concurrently, each in log order, and commits only when all succeeded', async () => {
    const store = await openStore();
    const log: string[] = [];
    const releases = new Map<string, () => void>();
    const processor: EventProcessor = {
      name: 'partitioned',
      streams: ['thing-'],
      handles: () => true,
      partitionOf: (event) => event.streamId,
      async process(event) {
        log.push(`start ${event.streamId}#${event.revision}`);
        // thing-a's first event waits until thing-b's has run: only possible if they run concurrently.
        if (event.streamId === 'thing-a' && event.revision === 0) await new Promise<void>((resolve) => releases.set('a', resolve));
        if (event.streamId === 'thing-b') releases.get('a')?.();
        if (event.streamId === 'thing-c') throw new Error('thing-c failed');
        log.push(`end ${event.streamId}#${event.revision}`);
      },
    };
    await store.registerProjection(processor.name, []);
    const batch = [recorded('thing-a', 0), recorded('thing-a', 1), recorded('thing-b', 0)];
    expect(await applyBatch(store, processor, 1, batch)).toBe('committed');
    expect(log).toEqual(['start thing-a#0', 'start thing-b#0', 'end thing-b#0', 'end thing-a#0', 'start thing-a#1', 'end thing-a#1']);
    expect(await store.checkpointOf('partitioned', 1)).toBe(batch[2]!.position);

    log.length = 0;
    const failing = [recorded('thing-c', 0), recorded('thing-d', 0)];
    await expect(applyBatch(store, processor, 1, failing)).rejects.toThrow('thing-c failed');
    expect(log).toEqual(['start thing-c#0', 'start thing-d#0', 'end thing-d#0']);
    expect(await store.checkpointOf('partitioned', 1)).toBe(batch[2]!.position);
    await store.close();
  });
});
