/** Named leases that keep singletons single across processes. Contract: test/contract/lease-store.contract.ts. */
export interface LeaseStore {
  /** True when the caller now holds the lease (new, expired, or already its own). */
  tryAcquireLease(name: string, owner: string, nowMs: number, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, owner: string): Promise<void>;
}

export const LEASE_STORE = Symbol('LEASE_STORE');
