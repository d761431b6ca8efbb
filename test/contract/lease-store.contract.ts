import { LeaseStore } from '../../src/platform/read-store/lease-store.port';
import { StoreLifecycle } from '../../src/platform/read-store/read-store.port';
import { unique } from './contract-names';

/**
 * Named leases for singletons.
 * Every read store adapter must pass it: runs against SQLite always and against MongoDB when MONGO_URL is set.
 */
export function leaseStoreContract(name: string, open: () => Promise<LeaseStore & StoreLifecycle>): void {
  describe(`LeaseStore contract: ${name}`, () => {
    let store: LeaseStore & StoreLifecycle;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
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

    // MongoDB answers these with upserts whose filter is not pure equality: the server does not retry the
    // losers' colliding inserts, and the adapter reads their duplicate-key errors as "held by someone else".
    it('lets exactly one of many concurrent contenders take over an expired lease, and answers the rest false', async () => {
      const lease = unique('lease');
      expect(await store.tryAcquireLease(lease, 'old', 1_000, 100)).toBe(true);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.tryAcquireLease(lease, `w${i}`, 2_000, 1_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = `w${results.indexOf(true)}`;
      expect(await store.tryAcquireLease(lease, 'old', 2_500, 100)).toBe(false);
      expect(await store.tryAcquireLease(lease, winner, 2_500, 1_000)).toBe(true);
    });

    it('keeps a live lease with its owner while others contend for it concurrently', async () => {
      const lease = unique('lease');
      expect(await store.tryAcquireLease(lease, 'owner', 1_000, 1_000)).toBe(true);
      const [renewed, ...others] = await Promise.all([
        store.tryAcquireLease(lease, 'owner', 1_500, 1_000),
        ...Array.from({ length: 9 }, (_, i) => store.tryAcquireLease(lease, `w${i}`, 1_500, 1_000)),
      ]);
      expect(renewed).toBe(true);
      expect(others.filter(Boolean)).toHaveLength(0);
    });
  });
}
