import { randomUUID } from 'node:crypto';
import { ConcurrencyError, EventStore, NewEvent, RecordedEvent } from '../../src/platform/event-store/event-store.port';

export function newEvent(type = 'TestHappened', data: unknown = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { correlationId: randomUUID(), causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

const uniqueStream = (prefix = 'contract') => `${prefix}-${randomUUID()}`;

/**
 * The behaviour every event store adapter must have. Runs against SQLite always and against
 * EventStoreDB when EVENTSTORE_URL is set. Streams have random names so a shared server is fine.
 */
export function eventStoreContract(name: string, open: () => Promise<EventStore>): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('appends to a new stream with no_stream and reads it back with ids, data and metadata', async () => {
      const stream = uniqueStream();
      const event = newEvent('Opened', { amount: '100' });
      const result = await store.append(stream, [event], 'no_stream');
      expect(result.nextExpectedRevision).toBe(0);
      const [read] = await store.readStream(stream);
      expect(read).toMatchObject({ id: event.id, type: 'Opened', data: { amount: '100' }, streamId: stream, revision: 0 });
      expect(read!.metadata).toMatchObject(event.metadata);
      expect(read!.position).toBe(result.position);
    });

    it('rejects no_stream on an existing stream', async () => {
      const stream = uniqueStream();
      await store.append(stream, [newEvent()], 'no_stream');
      await expect(store.append(stream, [newEvent()], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('raises the concurrency error on a stale revision and accepts the current one', async () => {
      const stream = uniqueStream();
      await store.append(stream, [newEvent(), newEvent()], 'no_stream');
      await expect(store.append(stream, [newEvent()], 0)).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(store.append(stream, [newEvent()], 5)).rejects.toBeInstanceOf(ConcurrencyError);
      const ok = await store.append(stream, [newEvent()], 1);
      expect(ok.nextExpectedRevision).toBe(2);
    });

    it('lets exactly one of 20 concurrent appends at the same revision succeed', async () => {
      const stream = uniqueStream();
      await store.append(stream, [newEvent()], 'no_stream');
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => store.append(stream, [newEvent('Raced')], 0)));
      const fulfilled = results.filter((r) => r.status === 'fulfilled');
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(19);
      for (const r of rejected) expect(r.reason).toBeInstanceOf(ConcurrencyError);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('keeps concurrent appends to different streams apart: a rejected one writes nothing, the others land whole', async () => {
      const [a, b, c] = [uniqueStream(), uniqueStream(), uniqueStream()];
      await store.append(b, [newEvent()], 'no_stream');
      const [first, stale, third] = await Promise.allSettled([
        store.append(a, [newEvent('A1'), newEvent('A2')], 'no_stream'),
        store.append(b, [newEvent('B-late'), newEvent('B-late')], 5),
        store.append(c, [newEvent('C1')], 'no_stream'),
      ]);
      expect(first.status).toBe('fulfilled');
      expect(third.status).toBe('fulfilled');
      expect(stale.status === 'rejected' && stale.reason).toBeInstanceOf(ConcurrencyError);
      expect((await store.readStream(a)).map((e) => e.type)).toEqual(['A1', 'A2']);
      expect((await store.readStream(b)).map((e) => e.type)).toEqual(['TestHappened']);
      expect((await store.readStream(c)).map((e) => e.type)).toEqual(['C1']);
      const positions = [first, third].map((r) => (r.status === 'fulfilled' ? r.value.position : NaN));
      expect(new Set(positions).size).toBe(2);
    });

    it('appends with any regardless of the current revision', async () => {
      const stream = uniqueStream();
      await store.append(stream, [newEvent()], 'any');
      await store.append(stream, [newEvent()], 'any');
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
    });

    it('keeps stream order and reads from a revision', async () => {
      const stream = uniqueStream();
      const events = Array.from({ length: 5 }, (_, i) => newEvent('Numbered', { i }));
      await store.append(stream, events.slice(0, 2), 'no_stream');
      await store.append(stream, events.slice(2), 1);
      const read = await store.readStream(stream);
      expect(read.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
      expect(read.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      expect((await store.readStream(stream, { fromRevision: 3 })).map((e) => e.revision)).toEqual([3, 4]);
    });

    it('returns an empty list for a stream that does not exist', async () => {
      expect(await store.readStream(uniqueStream())).toEqual([]);
    });

    it('orders events globally across streams by position', async () => {
      const a = uniqueStream('a');
      const b = uniqueStream('b');
      const before = (await store.headPosition()) ?? undefined;
      await store.append(a, [newEvent('G', { n: 1 })], 'no_stream');
      await store.append(b, [newEvent('G', { n: 2 })], 'no_stream');
      await store.append(a, [newEvent('G', { n: 3 })], 0);
      const mine = (await readEverything(store, before)).filter((e) => e.streamId === a || e.streamId === b);
      expect(mine.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3]);
      const positions = mine.map((e) => e.position);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      expect(new Set(positions).size).toBe(3);
    });

    it('treats re-appending the same event ids as idempotent', async () => {
      const stream = uniqueStream();
      const events = [newEvent(), newEvent()];
      const first = await store.append(stream, events, 'no_stream');
      const again = await store.append(stream, events, 'no_stream');
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      const afterAny = await store.append(stream, events, 'any');
      expect(afterAny.nextExpectedRevision).toBe(1);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('delivers every event exactly once from a checkpoint, then live events', async () => {
      const stream = uniqueStream('sub');
      await store.append(stream, [newEvent('S', { n: 0 })], 'no_stream');
      const checkpoint = await store.headPosition();
      await store.append(stream, [newEvent('S', { n: 1 }), newEvent('S', { n: 2 })], 0);
      const seen: RecordedEvent[] = [];
      const subscription = store.subscribeToAll(checkpoint, async (event) => {
        if (event.streamId === stream) seen.push(event);
      });
      try {
        await waitUntil(() => seen.length >= 2);
        await store.append(stream, [newEvent('S', { n: 3 })], 2);
        await store.append(stream, [newEvent('S', { n: 4 })], 3);
        await waitUntil(() => seen.length >= 4);
        await new Promise((r) => setTimeout(r, 200));
        expect(seen.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4]);
      } finally {
        await subscription.stop();
      }
    });

    it('gives each event of a multi-event append its own position; reads and subscriptions resume between them', async () => {
      const stream = uniqueStream('multi');
      const result = await store.append(stream, [newEvent('M', { n: 0 }), newEvent('M', { n: 1 }), newEvent('M', { n: 2 })], 'no_stream');
      const stored = await store.readStream(stream);
      const positions = stored.map((e) => e.position);
      expect(new Set(positions).size).toBe(3);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      // The append answers with the position readAll and subscriptions report for its last event.
      expect(result.position).toBe(positions[2]);

      const middle = positions[1]!;
      const read = (await readEverything(store, middle)).filter((e) => e.streamId === stream);
      expect(read.map((e) => (e.data as { n: number }).n)).toEqual([2]);
      const fromFirst = (await readEverything(store, positions[0])).filter((e) => e.streamId === stream);
      expect(fromFirst.map((e) => (e.data as { n: number }).n)).toEqual([1, 2]);

      const seen: number[] = [];
      const subscription = store.subscribeToAll(middle, async (event) => {
        if (event.streamId === stream) seen.push((event.data as { n: number }).n);
      });
      try {
        await store.append(stream, [newEvent('M', { n: 3 })], 2);
        await waitUntil(() => seen.length >= 2);
        await new Promise((r) => setTimeout(r, 200));
        expect(seen).toEqual([2, 3]);
      } finally {
        await subscription.stop();
      }
    });

    it('reports failed, and delivers nothing more, when the store stops serving a live subscription', async () => {
      // A server dropping the subscription cannot be staged here; closing the store under it is the stand-in.
      const own = await open();
      const stream = uniqueStream('dropped');
      const seen: RecordedEvent[] = [];
      const subscription = own.subscribeToAll(null, async (event) => {
        if (event.streamId === stream) seen.push(event);
      });
      let failedEarly = false;
      void subscription.failed.then(() => (failedEarly = true));
      await own.append(stream, [newEvent()], 'no_stream');
      await waitUntil(() => seen.length === 1);
      expect(failedEarly).toBe(false);
      await own.close();
      let timer: NodeJS.Timeout | undefined;
      const error = await Promise.race([subscription.failed, new Promise<string>((r) => (timer = setTimeout(() => r('not failed in 5 s'), 5000)))]);
      clearTimeout(timer);
      expect(error).toBeInstanceOf(Error);
      expect(seen).toHaveLength(1);
      await subscription.stop();
    });

    it('reports a subscription whose handler throws as failed', async () => {
      const stream = uniqueStream('boom');
      const checkpoint = await store.headPosition();
      await store.append(stream, [newEvent()], 'no_stream');
      const subscription = store.subscribeToAll(checkpoint, async (event) => {
        if (event.streamId === stream) throw new Error('handler broke');
      });
      const error = await subscription.failed;
      expect(error.message).toBe('handler broke');
      await subscription.stop();
    });

    // Runs last: the log then holds every kind of append the tests above made, rejected ones among them.
    it('when it says its positions are contiguous, holds its events at 1, 2, 3... whatever was rejected, raced or replayed', async () => {
      expect(typeof store.contiguousPositions).toBe('boolean');
      if (!store.contiguousPositions) return; // EventStoreDB: byte offsets, checked as strictly increasing above
      const stream = uniqueStream('contiguous');
      const replayed = [newEvent(), newEvent()];
      await store.append(stream, replayed, 'no_stream');
      await store.append(stream, replayed, 'no_stream');
      await Promise.allSettled(Array.from({ length: 10 }, () => store.append(stream, [newEvent(), newEvent()], 1)));
      await expect(store.append(uniqueStream('contiguous'), [replayed[0]!], 'no_stream')).rejects.toThrow();
      await store.append(stream, [newEvent()], 'any');
      const positions = (await readEverything(store)).map((event) => event.position);
      expect(positions.length).toBeGreaterThan(20);
      expect(positions).toEqual(positions.map((_, index) => index + 1));
      expect(await store.headPosition()).toBe(positions.length);
    });
  });
}

async function readEverything(store: EventStore, after?: number): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let cursor = after;
  for (;;) {
    const batch = await store.readAll({ after: cursor, maxCount: 500 });
    if (batch.length === 0) return all;
    all.push(...batch);
    cursor = batch[batch.length - 1]!.position;
  }
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
