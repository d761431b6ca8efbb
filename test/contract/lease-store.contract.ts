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
  });
}
