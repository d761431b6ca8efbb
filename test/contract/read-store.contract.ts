import { randomUUID } from 'node:crypto';
import { ReadStore } from '../../src/platform/read-store/read-store.port';

/** Projection and collection names are unique per test so a shared MongoDB server works too. */
const unique = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/**
 * The behaviour every read store adapter must have. Runs against SQLite always and against MongoDB
 * when MONGO_URL is set.
 */
export function readStoreContract(name: string, open: () => Promise<ReadStore>): void {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });

    async function registered(): Promise<{ projection: string; collection: string }> {
      const projection = unique('p');
      const collection = unique('c');
      await store.registerProjection(projection, [{ name: collection, indexes: [['owner'], ['owner', 'createdAt']] }]);
      return { projection, collection };
    }

    it('registers a projection at generation 1 with no checkpoint, idempotently', async () => {
      const { projection, collection } = await registered();
      await store.registerProjection(projection, [{ name: collection }]);
      expect(await store.projectionState(projection)).toEqual({
        projection,
        activeGeneration: 1,
        checkpoint: null,
        status: 'running',
        error: null,
      });
    });

    it('commits writes, checkpoint and stream revisions together and serves them to readers', async () => {
      const { projection, collection } = await registered();
      const result = await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 42,
        streamRevisions: { 'split-1': 3 },
        writes: [
          { kind: 'put', collection, doc: { id: 'a', owner: 'x', amount: '10', createdAt: '2026-01-01' } },
          { kind: 'put', collection, doc: { id: 'b', owner: 'y', amount: '20', createdAt: '2026-01-02' } },
        ],
      });
      expect(result).toBe('committed');
      expect(await store.get(collection, 'a')).toEqual({ id: 'a', owner: 'x', amount: '10', createdAt: '2026-01-01' });
      expect(await store.get(collection, 'missing')).toBeNull();
      expect(await store.checkpointOf(projection, 1)).toBe(42);
      expect(await store.streamRevisionOf(projection, 1, 'split-1')).toBe(3);
      expect(await store.streamRevisionOf(projection, 1, 'split-2')).toBeNull();
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 43,
        streamRevisions: {},
        writes: [{ kind: 'delete', collection, id: 'b' }],
      });
      expect(await store.get(collection, 'b')).toBeNull();
      expect((await store.projectionState(projection)).checkpoint).toBe(43);
      const replayed = await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 43,
        streamRevisions: { 'split-1': 9 },
        writes: [{ kind: 'put', collection, doc: { id: 'late', owner: 'z' } }],
      });
      expect(replayed).toBe('stale');
      expect(await store.get(collection, 'late')).toBeNull();
      expect(await store.streamRevisionOf(projection, 1, 'split-1')).toBe(3);
    });

    it('refuses a batch read after a checkpoint that another runner has since passed, writing nothing', async () => {
      const { projection, collection } = await registered();
      const batch = (after: number | null, checkpoint: number, id: string) =>
        store.commitProjection({ projection, generation: 1, checkpoint, after, streamRevisions: { [`s-${id}`]: 0 }, writes: [{ kind: 'put', collection, doc: { id } }] });
      expect(await batch(null, 10, 'first')).toBe('committed');
      // A runner that took the lease over committed up to 20 ...
      expect(await batch(10, 20, 'taken-over')).toBe('committed');
      // ... so the old runner's batch read after 10 (ending at 30) is stale, though 30 is past 20.
      expect(await batch(10, 30, 'late')).toBe('stale');
      expect(await store.get(collection, 'late')).toBeNull();
      expect(await store.streamRevisionOf(projection, 1, 's-late')).toBeNull();
      expect(await store.checkpointOf(projection, 1)).toBe(20);
      expect(await batch(null, 40, 'from-scratch')).toBe('stale');
      expect(await batch(20, 40, 'next')).toBe('committed');
    });

    it('finds by equality filter with sort, skip and limit, and counts', async () => {
      const { projection, collection } = await registered();
      const docs = Array.from({ length: 7 }, (_, i) => ({
        id: `d${i}`,
        owner: i % 2 === 0 ? 'even' : 'odd',
        createdAt: `2026-01-0${i + 1}`,
        active: i < 3,
        note: i === 0 ? null : 'x',
      }));
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 1,
        streamRevisions: {},
        writes: docs.map((doc) => ({ kind: 'put' as const, collection, doc })),
      });
      const evens = await store.find(collection, { filter: { owner: 'even' }, sort: [{ field: 'createdAt', direction: 'desc' }] });
      expect(evens.map((d) => d.id)).toEqual(['d6', 'd4', 'd2', 'd0']);
      const page = await store.find(collection, {
        filter: { owner: 'even' },
        sort: [{ field: 'createdAt', direction: 'desc' }],
        skip: 1,
        limit: 2,
      });
      expect(page.map((d) => d.id)).toEqual(['d4', 'd2']);
      expect(await store.count(collection, { owner: 'odd' })).toBe(3);
      expect(await store.count(collection)).toBe(7);
      expect((await store.find(collection, { filter: { active: true } })).map((d) => d.id).sort()).toEqual(['d0', 'd1', 'd2']);
      expect((await store.find(collection, { filter: { note: null } })).map((d) => d.id)).toEqual(['d0']);
    });

    it('rebuilds into a shadow generation while the active one keeps serving, then swaps', async () => {
      const { projection, collection } = await registered();
      await store.commitProjection({
        projection, generation: 1, checkpoint: 5, streamRevisions: { s: 0 },
        writes: [{ kind: 'put', collection, doc: { id: 'old', owner: 'o' } }],
      });
      const shadow = await store.createShadowGeneration(projection);
      expect(shadow).toBe(2);
      expect(await store.checkpointOf(projection, shadow)).toBeNull();
      expect(await store.generationReader(projection, shadow).get(collection, 'old')).toBeNull();
      await store.commitProjection({
        projection, generation: shadow, checkpoint: 5, streamRevisions: { s: 0 },
        writes: [{ kind: 'put', collection, doc: { id: 'new', owner: 'o' } }],
      });
      expect(await store.get(collection, 'old')).not.toBeNull();
      expect(await store.get(collection, 'new')).toBeNull();
      await store.activateGeneration(projection, shadow);
      expect(await store.get(collection, 'new')).not.toBeNull();
      expect(await store.get(collection, 'old')).toBeNull();
      expect((await store.projectionState(projection)).activeGeneration).toBe(shadow);
      const late = await store.commitProjection({ projection, generation: 1, checkpoint: 6, streamRevisions: {}, writes: [] });
      expect(late).toBe('retired');
    });

    it('discards the shadow generations an interrupted rebuild left, keeping the active one', async () => {
      const { projection, collection } = await registered();
      await store.commitProjection({ projection, generation: 1, checkpoint: 3, streamRevisions: {}, writes: [{ kind: 'put', collection, doc: { id: 'kept', owner: 'o' } }] });
      const left = [await store.createShadowGeneration(projection), await store.createShadowGeneration(projection)];
      await store.commitProjection({ projection, generation: left[0]!, checkpoint: 2, streamRevisions: { s: 0 }, writes: [{ kind: 'put', collection, doc: { id: 'half', owner: 'o' } }] });
      expect((await store.discardShadowGenerations(projection)).sort()).toEqual([...left].sort());
      expect(await store.discardShadowGenerations(projection)).toEqual([]);
      for (const shadow of left) expect(await store.commitProjection({ projection, generation: shadow, checkpoint: 9, streamRevisions: {}, writes: [] })).toBe('retired');
      expect(await store.get(collection, 'kept')).not.toBeNull();
      expect((await store.projectionState(projection)).activeGeneration).toBe(1);
      const next = await store.createShadowGeneration(projection);
      expect(left).not.toContain(next);
      await store.activateGeneration(projection, next);
      expect((await store.projectionState(projection)).activeGeneration).toBe(next);
    });

    it('reports a stalled projection and clears it', async () => {
      const { projection } = await registered();
      await store.setProjectionError(projection, 'gap in stream s');
      expect(await store.projectionState(projection)).toMatchObject({ status: 'stalled', error: 'gap in stream s' });
      await store.setProjectionError(projection, null);
      expect(await store.projectionState(projection)).toMatchObject({ status: 'running', error: null });
    });

    it('keeps operational documents outside projections', async () => {
      const collection = unique('op');
      await store.putOperational(collection, { id: 'k', value: 1 });
      await store.putOperational(collection, { id: 'k', value: 2 });
      expect(await store.getOperational(collection, 'k')).toEqual({ id: 'k', value: 2 });
      await store.putOperational(collection, { id: 'a', value: 0 });
      await store.putOperational(unique('other'), { id: 'b', value: 9 });
      expect(await store.listOperational(collection, 10)).toEqual([{ id: 'a', value: 0 }, { id: 'k', value: 2 }]);
      expect(await store.listOperational(collection, 1)).toEqual([{ id: 'a', value: 0 }]);
      expect(await store.deleteOperational(collection, 'k')).toBe(true);
      expect(await store.getOperational(collection, 'k')).toBeNull();
      expect(await store.deleteOperational(collection, 'k')).toBe(false);
    });

    it('grants a lease to one owner until it expires or is released', async () => {
      const lease = unique('lease');
      expect(await store.tryAcquireLease(lease, 'w1', 1_000, 100)).toBe(true);
      expect(await store.tryAcquireLease(lease, 'w2', 1_050, 100)).toBe(false);
      expect(await store.tryAcquireLease(lease, 'w1', 1_050, 100)).toBe(true);
      expect(await store.tryAcquireLease(lease, 'w2', 1_149, 100)).toBe(false);
      expect(await store.tryAcquireLease(lease, 'w2', 1_151, 100)).toBe(true);
      await store.releaseLease(lease, 'w2');
      expect(await store.tryAcquireLease(lease, 'w3', 1_152, 100)).toBe(true);
    });

    it('lets exactly one of many concurrent contenders take a lease', async () => {
      const lease = unique('lease');
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.tryAcquireLease(lease, `w${i}`, 5_000, 1_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

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
      for (const [id, doneAtMs] of [[ids[0]!, 1_000], [ids[1]!, 2_000], [ids[3]!, 9_000]] as const) await store.completeTimer(id, 'w1', doneAtMs);
      const mine = async () => (await Promise.all(ids.map((id) => store.timerStatus(id)))).map((s) => s?.status ?? 'gone');
      const rounds: number[] = [];
      for (let round = 0; round < 10; round++) rounds.push(await store.purgeDoneTimers(5_000, 1));
      expect(rounds.every((n) => n <= 1)).toBe(true);
      expect(rounds.reduce((a, b) => a + b, 0)).toBe(2);
      expect(await mine()).toEqual(['gone', 'gone', 'scheduled', 'done']);
    });

    it('purges operational documents expired at a time, at most a batch at once, keeping the rest', async () => {
      const collection = unique('expiring');
      const other = unique('other');
      const docs = [
        { id: 'a', expiresAt: '2026-01-01T00:00:00.000Z' },
        { id: 'b', expiresAt: '2026-01-02T00:00:00.000Z' },
        { id: 'c', expiresAt: '2026-01-03T00:00:00.000Z' },
        { id: 'd' },
      ];
      for (const doc of docs) await store.putOperational(collection, doc);
      await store.putOperational(other, { id: 'a', expiresAt: '2026-01-01T00:00:00.000Z' });
      const rounds: number[] = [];
      for (let round = 0; round < 4; round++) rounds.push(await store.purgeExpiredOperational(collection, '2026-01-02T00:00:00.000Z', 1));
      expect(rounds).toEqual([1, 1, 0, 0]);
      expect((await store.listOperational<{ id: string }>(collection, 10)).map((doc) => doc.id)).toEqual(['c', 'd']);
      expect(await store.getOperational(other, 'a')).not.toBeNull();
    });

    it('counts uses of an allowance per window, atomically, and starts a new window once one ends', async () => {
      const collection = unique('allowance');
      const use = (now: string) => store.useAllowance(collection, 'usr_1', 3, now, '2026-01-01T01:00:00.000Z');
      const concurrent = await Promise.all(Array.from({ length: 10 }, () => use('2026-01-01T00:00:00.000Z')));
      expect(concurrent.filter(Boolean)).toHaveLength(3);
      expect(await use('2026-01-01T00:59:59.999Z')).toBe(false);
      expect(await store.getOperational(collection, 'usr_1')).toEqual({ id: 'usr_1', used: 3, expiresAt: '2026-01-01T01:00:00.000Z' });
      const later = () => store.useAllowance(collection, 'usr_1', 3, '2026-01-01T01:00:00.000Z', '2026-01-01T02:00:00.000Z');
      expect(await later()).toBe(true);
      expect(await store.getOperational(collection, 'usr_1')).toEqual({ id: 'usr_1', used: 1, expiresAt: '2026-01-01T02:00:00.000Z' });
      expect(await store.useAllowance(collection, 'usr_2', 3, '2026-01-01T01:00:00.000Z', '2026-01-01T02:00:00.000Z')).toBe(true);
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
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.claimDueTimers('2026-03-01T00:00:00.000Z', `w${i}`, 0, 60_000, 1000)),
      );
      expect(claims.flat().filter((t) => t.id === id)).toHaveLength(1);
    });
  });
}
