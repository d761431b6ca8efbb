import { OperationalStore } from '../../src/platform/read-store/operational-store.port';
import { StoreLifecycle } from '../../src/platform/read-store/read-store.port';
import { unique } from './contract-names';

/**
 * Operational documents no projection owns: sessions, links, allowances, the sandbox clock.
 * Every read store adapter must pass it: runs against SQLite always and against MongoDB when MONGO_URL is set.
 */
export function operationalStoreContract(name: string, open: () => Promise<OperationalStore & StoreLifecycle>): void {
  describe(`OperationalStore contract: ${name}`, () => {
    let store: OperationalStore & StoreLifecycle;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('keeps operational documents outside projections', async () => {
      const collection = unique('op');
      await store.putOperational(collection, { id: 'k', value: 1 });
      await store.putOperational(collection, { id: 'k', value: 2 });
      expect(await store.getOperational(collection, 'k')).toEqual({ id: 'k', value: 2 });
      await store.putOperational(collection, { id: 'a', value: 0 });
      await store.putOperational(unique('other'), { id: 'b', value: 9 });
      expect(await store.listOperational(collection, 10)).toEqual([
        { id: 'a', value: 0 },
        { id: 'k', value: 2 },
      ]);
      expect(await store.listOperational(collection, 1)).toEqual([{ id: 'a', value: 0 }]);
      expect(await store.deleteOperational(collection, 'k')).toBe(true);
      expect(await store.getOperational(collection, 'k')).toBeNull();
      expect(await store.deleteOperational(collection, 'k')).toBe(false);
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

    it('gives back a use of a live window, never below zero, and leaves an ended window alone', async () => {
      const collection = unique('allowance');
      const use = () => store.useAllowance(collection, 'usr_1', 2, '2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00.000Z');
      expect([await use(), await use(), await use()]).toEqual([true, true, false]);
      await Promise.all([1, 2, 3].map(() => store.returnAllowance(collection, 'usr_1', '2026-01-01T00:30:00.000Z')));
      expect(await store.getOperational(collection, 'usr_1')).toEqual({ id: 'usr_1', used: 0, expiresAt: '2026-01-01T01:00:00.000Z' });
      expect(await use()).toBe(true);
      await store.returnAllowance(collection, 'usr_1', '2026-01-01T01:00:00.000Z');
      expect(await store.getOperational(collection, 'usr_1')).toEqual({ id: 'usr_1', used: 1, expiresAt: '2026-01-01T01:00:00.000Z' });
      await store.returnAllowance(collection, 'usr_2', '2026-01-01T00:30:00.000Z');
      expect(await store.getOperational(collection, 'usr_2')).toBeNull();
    });

    // In MongoDB the restart is an upsert whose filter has a range (not pure equality): concurrent restarts
    // must collide on the key (duplicate-key error, never retried by the server) and count in one window.
    it('counts concurrent uses exactly when an ended window restarts', async () => {
      const collection = unique('allowance');
      expect(await store.useAllowance(collection, 'usr_1', 2, '2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00.000Z')).toBe(true);
      const restart = () => store.useAllowance(collection, 'usr_1', 3, '2026-01-01T01:00:00.000Z', '2026-01-01T02:00:00.000Z');
      const concurrent = await Promise.all(Array.from({ length: 10 }, restart));
      expect(concurrent.filter(Boolean)).toHaveLength(3);
      expect(await store.getOperational(collection, 'usr_1')).toEqual({ id: 'usr_1', used: 3, expiresAt: '2026-01-01T02:00:00.000Z' });
    });

    it('claims an id once: the live document answers every later claim, unchanged; an expired one is replaced', async () => {
      const collection = unique('claims');
      const first = { id: 'key_1', state: 'in_flight', expiresAt: '2026-01-02T00:00:00.000Z' };
      expect(await store.claimOperational(collection, first, '2026-01-01T00:00:00.000Z')).toBeNull();
      expect(await store.claimOperational(collection, { ...first, state: 'other' }, '2026-01-01T23:59:59.999Z')).toEqual(first);
      expect(await store.getOperational(collection, 'key_1')).toEqual(first);
      // At its expiresAt the document is no longer live: a new claim replaces it.
      const next = { id: 'key_1', state: 'again', expiresAt: '2026-01-03T00:00:00.000Z' };
      expect(await store.claimOperational(collection, next, '2026-01-02T00:00:00.000Z')).toBeNull();
      expect(await store.getOperational(collection, 'key_1')).toEqual(next);
      // A document without expiresAt is always live.
      await store.putOperational(collection, { id: 'forever', state: 'kept' });
      expect(await store.claimOperational(collection, { id: 'forever', state: 'x', expiresAt: '2026-01-01T00:00:00.000Z' }, '2030-01-01T00:00:00.000Z')).toEqual({
        id: 'forever',
        state: 'kept',
      });
    });

    it('lets exactly one of concurrent claims of an id (new, or replacing an expired one) win', async () => {
      const collection = unique('claims');
      const claim = (n: number, now: string, expiresAt: string) => store.claimOperational(collection, { id: 'key_1', n, expiresAt }, now);
      const fresh = await Promise.all(Array.from({ length: 10 }, (_, n) => claim(n, '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')));
      expect(fresh.filter((answer) => answer === null)).toHaveLength(1);
      const winner = await store.getOperational<{ id: string; n: number }>(collection, 'key_1');
      expect(fresh.filter((answer) => answer !== null).every((answer) => answer!.n === winner!.n)).toBe(true);
      const replacing = await Promise.all(Array.from({ length: 10 }, (_, n) => claim(n + 100, '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z')));
      expect(replacing.filter((answer) => answer === null)).toHaveLength(1);
      expect((await store.getOperational<{ id: string; n: number }>(collection, 'key_1'))!.n).toBeGreaterThanOrEqual(100);
    });
  });
}
