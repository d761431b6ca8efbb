import { DocumentStore } from '../../src/platform/read-store/document-store.port';
import { StoreLifecycle } from '../../src/platform/read-store/read-store.port';
import { TimerStore } from '../../src/platform/read-store/timer-store.port';
import { registered as register, unique } from './contract-names';

/** Timers are also staged by projection commits, so the suite needs the commit side of the document store. */
type TimerStoreUnderTest = TimerStore & StoreLifecycle & Pick<DocumentStore, 'registerProjection' | 'commitProjection' | 'checkpointOf'>;

/**
 * Durable timers claimed with a lease, scheduled directly or staged by a projection commit.
 * Every read store adapter must pass it: runs against SQLite always and against MongoDB when MONGO_URL is set.
 */
export function timerStoreContract(name: string, open: () => Promise<TimerStoreUnderTest>): void {
  describe(`TimerStore contract: ${name}`, () => {
    let store: TimerStoreUnderTest;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });
    const registered = () => register(store);

    it('schedules timers idempotently and claims each due timer once while leased', async () => {
      const kind = unique('kind');
      const id = unique('t');
      await store.scheduleTimer({ id, kind, dueAt: '2026-01-01T00:00:10.000Z', payload: { n: 1 } });
      await store.scheduleTimer({ id, kind, dueAt: '2030-01-01T00:00:00.000Z', payload: { n: 2 } });
      const early = await store.claimDueTimers('2026-01-01T00:00:09.000Z', 'w1', 1_000, 500, 100);
      expect(early.filter((t) => t.kind === kind)).toHaveLength(0);
      const [claimed] = (await store.claimDueTimers('2026-01-01T00:00:10.000Z', 'w1', 1_000, 500, 100)).filter((t) => t.id === id);
      expect(claimed).toEqual({ id, kind, dueAt: '2026-01-01T00:00:10.000Z', payload: { n: 1 }, attempts: 0 });
      const again = await store.claimDueTimers('2026-01-01T00:00:10.000Z', 'w2', 1_100, 500, 100);
      expect(again.find((t) => t.id === id)).toBeUndefined();
      const afterExpiry = await store.claimDueTimers('2026-01-01T00:00:10.000Z', 'w2', 1_501, 500, 100);
      expect(afterExpiry.find((t) => t.id === id)).toBeDefined();
      await store.completeTimer(id, 'w1', Date.now());
      expect((await store.timerStatus(id))!.status).toBe('scheduled');
      await store.completeTimer(id, 'w2', Date.now());
      expect(await store.timerStatus(id)).toEqual({ status: 'done', attempts: 1, lastError: null });
      expect((await store.claimDueTimers('2031-01-01T00:00:00.000Z', 'w3', 9_999, 500, 100)).find((t) => t.id === id)).toBeUndefined();
    });

    it('stores the timers a commit stages with its checkpoint, keeping an existing timer as it is', async () => {
      const { projection } = await registered();
      const kind = unique('kind');
      const [kept, staged] = [unique('t'), unique('t')];
      await store.scheduleTimer({ id: kept, kind, dueAt: '2026-03-01T00:00:00.000Z', payload: { n: 1 } });
      const commit = (checkpoint: number) =>
        store.commitProjection({
          projection,
          generation: 1,
          checkpoint,
          streamRevisions: {},
          writes: [],
          timers: [
            { id: kept, kind, dueAt: '2030-01-01T00:00:00.000Z', payload: { n: 2 } },
            { id: staged, kind, dueAt: '2026-03-02T00:00:00.000Z', payload: { n: 3 } },
          ],
        });
      expect(await commit(7)).toBe('committed');
      expect(await commit(7)).toBe('stale');
      const due = (await store.claimDueTimers('2026-03-02T00:00:00.000Z', 'w1', 1_000, 500, 100)).filter((t) => t.kind === kind);
      expect(due.map((t) => ({ id: t.id, payload: t.payload })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [
          { id: kept, payload: { n: 1 } },
          { id: staged, payload: { n: 3 } },
        ].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await store.checkpointOf(projection, 1)).toBe(7);
    });

    it('counts scheduled and parked timers per kind, not done ones', async () => {
      const kind = unique('kind');
      const [a, b, c] = [unique('t'), unique('t'), unique('t')];
      for (const id of [a, b, c]) await store.scheduleTimer({ id, kind, dueAt: '2026-04-01T00:00:00.000Z', payload: {} });
      await store.claimDueTimers('2026-04-01T00:00:00.000Z', 'w1', 1_000, 500, 100);
      await store.completeTimer(a, 'w1', Date.now());
      await store.parkTimer(b, 'w1', 'gave up');
      const mine = (await store.timerCounts()).filter((row) => row.kind === kind);
      expect(mine).toEqual([
        { kind, status: 'parked', count: 1 },
        { kind, status: 'scheduled', count: 1 },
      ]);
    });

    it('purges timers completed before a time, at most a batch at once, and nothing else', async () => {
      const kind = unique('kind');
      const ids = Array.from({ length: 4 }, () => unique('t'));
      for (const id of ids) await store.scheduleTimer({ id, kind, dueAt: '2020-01-01T00:00:00.000Z', payload: {} });
      const claimed = (await store.claimDueTimers('2020-03-01T00:00:00.000Z', 'w1', 1_000, 500, -1)).filter((t) => t.kind === kind);
      expect(claimed).toHaveLength(4);
      // Completed at real times 1,000 / 2,000 / - / 9,000 ms; ids[2] stays scheduled (its claim lapses).
      for (const [id, doneAtMs] of [
        [ids[0]!, 1_000],
        [ids[1]!, 2_000],
        [ids[3]!, 9_000],
      ] as const)
        await store.completeTimer(id, 'w1', doneAtMs);
      const mine = async () => (await Promise.all(ids.map((id) => store.timerStatus(id)))).map((s) => s?.status ?? 'gone');
      const rounds: number[] = [];
      for (let round = 0; round < 10; round++) rounds.push(await store.purgeDoneTimers(5_000, 1));
      expect(rounds.every((n) => n <= 1)).toBe(true);
      expect(rounds.reduce((a, b) => a + b, 0)).toBe(2);
      expect(await mine()).toEqual(['gone', 'gone', 'scheduled', 'done']);
    });

    it('retries and parks timers, recording attempts and the last error', async () => {
      const kind = unique('kind');
      const id = unique('t');
      await store.scheduleTimer({ id, kind, dueAt: '2026-02-01T00:00:00.000Z', payload: {} });
      await store.claimDueTimers('2026-02-01T00:00:00.000Z', 'w1', 0, 500, 1000);
      await store.retryTimer(id, 'w1', '2026-02-01T00:01:00.000Z', 'boom');
      expect(await store.timerStatus(id)).toEqual({ status: 'scheduled', attempts: 1, lastError: 'boom' });
      expect(await store.nextTimerDueAt()).not.toBeNull();
      const [retried] = (await store.claimDueTimers('2026-02-01T00:01:00.000Z', 'w1', 0, 500, 1000)).filter((t) => t.id === id);
      expect(retried!.attempts).toBe(1);
      await store.parkTimer(id, 'w1', 'gave up');
      expect(await store.timerStatus(id)).toEqual({ status: 'parked', attempts: 2, lastError: 'gave up' });
    });

    it('claims a due timer for exactly one of several concurrent workers', async () => {
      const kind = unique('kind');
      const id = unique('t');
      await store.scheduleTimer({ id, kind, dueAt: '2026-03-01T00:00:00.000Z', payload: {} });
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => store.claimDueTimers('2026-03-01T00:00:00.000Z', `w${i}`, 0, 60_000, 1000)));
      expect(claims.flat().filter((t) => t.id === id)).toHaveLength(1);
    });
  });
}
