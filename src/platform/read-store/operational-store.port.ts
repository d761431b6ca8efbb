import { Doc } from './document-store.port';

/**
 * Operational documents that no projection owns (sessions, magic links, rate allowances, the sandbox
 * clock). Contract: test/contract/operational-store.contract.ts.
 */
export interface OperationalStore {
  putOperational<T extends Doc>(collection: string, doc: T): Promise<void>;
  getOperational<T extends Doc>(collection: string, id: string): Promise<T | null>;
  /** True when this call deleted the document (false: it was not there), so a delete can be a single-use claim. */
  deleteOperational(collection: string, id: string): Promise<boolean>;
  /** Operational documents of one collection, ordered by id. */
  listOperational<T extends Doc>(collection: string, limit: number): Promise<T[]>;
  /**
   * Deletes up to `limit` documents of `collection` whose `expiresAt` (an ISO timestamp) is at or
   * before `expiredAt`, and says how many. Documents without `expiresAt` are kept.
   */
  purgeExpiredOperational(collection: string, expiredAt: string, limit: number): Promise<number>;
  /**
   * Atomically counts one use of `id`'s allowance in `collection` (an operational document
   * `{id, used, expiresAt}`): with no window, or one that ended by `now`, a new window starts with one
   * use and ends at `windowEndsAt`; a live window counts one more use unless `allowance` are used.
   * Says whether this use was allowed. Concurrent calls never allow more than `allowance` a window.
   */
  useAllowance(collection: string, id: string, allowance: number, now: string, windowEndsAt: string): Promise<boolean>;
  /**
   * Atomically inserts `doc` unless a live document with its id is in `collection` (one without
   * `expiresAt`, or whose `expiresAt` is after `now`): answers null when this call inserted it (an
   * expired document is replaced), else the live document, unchanged. Of concurrent claims of one id,
   * exactly one answers null. Idempotency keys are claimed this way (src/platform/http/idempotency-key.ts).
   */
  claimOperational<T extends Doc>(collection: string, doc: T, now: string): Promise<T | null>;
  /**
   * Atomically gives back one use counted by `useAllowance` in `id`'s window, if that window is still live
   * at `now` and has a use to give back (otherwise nothing changes). For a use that turned out not to count
   * (a login whose password was right: only failures count against the limit).
   */
  returnAllowance(collection: string, id: string, now: string): Promise<void>;
}

export const OPERATIONAL_STORE = Symbol('OPERATIONAL_STORE');
