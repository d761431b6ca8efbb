import { RecordedEvent } from '../event-store/event-store.port';
import { LiveBatcher } from './live-batcher';

const event = (position: number): RecordedEvent => ({
  id: `e${position}`,
  type: 'T',
  data: {},
  metadata: { correlationId: 'c', causationId: null, actor: 'a', occurredAt: '2026-01-01T00:00:00.000Z' },
  streamId: 's',
  revision: position - 1,
  position,
});

describe('LiveBatcher', () => {
  it('commits events handed over together as one batch on the next turn, in order', async () => {
    const batches: number[][] = [];
    const batcher = new LiveBatcher(async (batch) => void batches.push(batch.map((e) => e.position)), 100);
    for (let p = 1; p <= 5; p++) await batcher.add(event(p));
    expect(batches).toEqual([]);
    await new Promise((r) => setImmediate(r));
    await batcher.flush();
    expect(batches).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('is settled once a commit under way after close has ended, whether it succeeded or failed', async () => {
    for (const outcome of ['committed', 'failed'] as const) {
      let finish!: () => void;
      let ended = false;
      const batcher = new LiveBatcher(
        () => new Promise<void>((resolve, reject) => (finish = () => (outcome === 'failed' ? reject(new Error('retired')) : resolve()))).finally(() => (ended = true)),
        100,
      );
      void batcher.add(event(1));
      await new Promise((r) => setImmediate(r)); // the scheduled flush starts its commit
      batcher.close();
      let settled = false;
      const settling = batcher.settled().then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 5));
      expect(settled).toBe(false);
      finish();
      await settling;
      expect(ended).toBe(true);
    }
  });

  it('flushes inline when a batch is full, never running two commits at once', async () => {
    const batches: number[][] = [];
    let running = 0;
    const batcher = new LiveBatcher(async (batch) => {
      running += 1;
      expect(running).toBe(1);
      await new Promise((r) => setTimeout(r, 5));
      batches.push(batch.map((e) => e.position));
      running -= 1;
    }, 2);
    for (let p = 1; p <= 5; p++) await batcher.add(event(p));
    await new Promise((r) => setImmediate(r));
    await batcher.flush();
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(batches[0]).toEqual([1, 2]);
  });

  it('reports a background commit failure', async () => {
    const batcher = new LiveBatcher(async () => {
      throw new Error('read store down');
    }, 100);
    await batcher.add(event(1));
    expect((await batcher.failed).message).toBe('read store down');
  });

  it('commits at once when idle, and a busy subscriber at most once per interval, in a bigger batch', async () => {
    const batches: number[][] = [];
    const batcher = new LiveBatcher(async (batch) => void batches.push(batch.map((e) => e.position)), 100, 50);
    await batcher.add(event(1));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1]]);
    for (let p = 2; p <= 4; p++) await batcher.add(event(p));
    await new Promise((r) => setTimeout(r, 10));
    expect(batches).toEqual([[1]]);
    await new Promise((r) => setTimeout(r, 60));
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('never commits again after a failed commit, so no later batch can pass the events that failed', async () => {
    const batches: number[][] = [];
    let fail = true;
    const batcher = new LiveBatcher(async (batch) => {
      if (fail) {
        fail = false;
        throw new Error('read store down');
      }
      batches.push(batch.map((e) => e.position));
    }, 100);
    await batcher.add(event(1));
    await batcher.add(event(2));
    expect((await batcher.failed).message).toBe('read store down');
    await batcher.add(event(3));
    await new Promise((r) => setTimeout(r, 20));
    await batcher.flush();
    expect(batches).toEqual([]);
  });
});
