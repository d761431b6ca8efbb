import { DocumentStore } from './document-store.port';
import { LeaseStore } from './lease-store.port';
import { OperationalStore } from './operational-store.port';
import { TimerStore } from './timer-store.port';

// Old import site of the timer types, still used by processors being rewritten elsewhere.
export type { NewTimer, Timer } from './timer-store.port';

export interface StoreLifecycle {
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One read store adapter (SQLite or MongoDB, one connection) serves every read-side port. Only the
 * composition root, health and the CLI hold it whole; everything else injects the narrow port it uses.
 */
export interface ReadStore extends DocumentStore, TimerStore, LeaseStore, OperationalStore, StoreLifecycle {}

export const READ_STORE = Symbol('READ_STORE');
