/**
 * The read store port: documents built by projections, the projections' own bookkeeping
 * (generation, checkpoint, last stream revision applied), operational documents (sessions, sandbox
 * state), leases for singletons, and durable timers claimed with a lease. Two adapters (SQLite, MongoDB)
 * pass test/contract/read-store.contract.ts.
 *
 * Projection collections are versioned by generation so a rebuild can fill a shadow generation while
 * the API keeps reading the active one, then swap atomically.
 */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

export type FilterValue = string | number | boolean | null;
/** Equality on top-level fields, combined with AND. */
export type Filter = Record<string, FilterValue>;

export interface FindOptions {
  filter?: Filter;
  sort?: { field: string; direction: 'asc' | 'desc' }[];
  skip?: number;
  limit?: number;
}

export interface DocumentReader {
  get<T extends Doc>(collection: string, id: string): Promise<T | null>;
  find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]>;
  count(collection: string, filter?: Filter): Promise<number>;
}

/** A collection a projection owns, with the top-level fields it is queried by. */
export interface CollectionSpec {
  name: string;
  indexes?: string[][];
}

export type DocumentWrite =
  | { kind: 'put'; collection: string; doc: Doc }
  | { kind: 'delete'; collection: string; id: string };

export type NewTimer = Omit<Timer, 'attempts'>;

export interface ProjectionCommit {
  projection: string;
  generation: number;
  /** Global position of the last event this commit covers. */
  checkpoint: number;
  /**
   * The checkpoint the batch was read after, when the committer knows it. A stored checkpoint past it
   * means another runner (one that took the lease over) applied some of these events already: the
   * commit is 'stale' and writes nothing.
   */
  after?: number | null;
  /** Last revision applied per stream, for duplicate and gap detection. */
  streamRevisions: Record<string, number>;
  writes: DocumentWrite[];
  /** Timers a process manager scheduled while processing the batch: stored with its checkpoint (idempotent on id). */
  timers?: NewTimer[];
}

export type CommitOutcome = 'committed' | 'retired' | 'stale';

/** Both adapters' rule: a commit is stale if the stored checkpoint reached its end, or passed its start. */
export function isStale(stored: number | null, commit: Pick<ProjectionCommit, 'checkpoint' | 'after'>): boolean {
  if (stored === null) return false;
  return stored >= commit.checkpoint || (commit.after !== undefined && stored > (commit.after ?? -1));
}

export interface ProjectionState {
  projection: string;
  activeGeneration: number;
  checkpoint: number | null;
  status: 'running' | 'stalled';
  error: string | null;
}

export interface Timer {
  id: string;
  kind: string;
  /** ISO-8601; compared against the domain Clock. */
  dueAt: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export type TimerStatus = 'scheduled' | 'done' | 'parked';

export interface TimerCount {
  kind: string;
  status: TimerStatus;
  count: number;
}

export interface ReadStore extends DocumentReader {
  /** Declares a projection and its collections; creates generation 1 if the projection is new. Idempotent. */
  registerProjection(projection: string, collections: CollectionSpec[]): Promise<void>;
  projectionState(projection: string): Promise<ProjectionState>;
  /** Reads documents of one generation (a projection applying events reads its own generation). */
  generationReader(projection: string, generation: number): DocumentReader;
  checkpointOf(projection: string, generation: number): Promise<number | null>;
  streamRevisionOf(projection: string, generation: number, streamId: string): Promise<number | null>;
  /**
   * Atomically applies the writes and advances the checkpoint and stream revisions.
   * Writes nothing and returns 'retired' when the generation has been replaced by a rebuild, or 'stale'
   * when the stored checkpoint is already at or past this one (another worker applied it first).
   */
  commitProjection(commit: ProjectionCommit): Promise<CommitOutcome>;
  /** Creates an empty shadow generation for a rebuild and returns its number. */
  createShadowGeneration(projection: string): Promise<number>;
  /** Makes the generation active and drops the previous one. */
  activateGeneration(projection: string, generation: number): Promise<void>;
  /**
   * Retires and drops every generation but the active one (shadows an interrupted rebuild left) and
   * returns their numbers. Only a rebuild that holds the projection's rebuild lease may call it.
   */
  discardShadowGenerations(projection: string): Promise<number[]>;
  /** Marks the projection stalled (e.g. a gap in a stream) so status and health report it; null clears. */
  setProjectionError(projection: string, error: string | null): Promise<void>;

  /** Operational documents that no projection owns (sessions, sandbox clock). */
  putOperational(collection: string, doc: Doc): Promise<void>;
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

  /** True when the caller now holds the lease (new, expired, or already its own). */
  tryAcquireLease(name: string, owner: string, nowMs: number, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, owner: string): Promise<void>;

  /** Idempotent on id: scheduling an existing timer changes nothing. */
  scheduleTimer(timer: NewTimer): Promise<void>;
  /** Claims up to `limit` scheduled timers due at `now` whose lease is free or expired. */
  claimDueTimers(now: string, owner: string, nowMs: number, leaseMs: number, limit: number): Promise<Timer[]>;
  /** Marks the timer done, recording when (real milliseconds) for the purge. */
  completeTimer(id: string, owner: string, doneAtMs: number): Promise<void>;
  /** Releases the claim and moves the timer to a later due time after a failed attempt. */
  retryTimer(id: string, owner: string, dueAt: string, error: string): Promise<void>;
  parkTimer(id: string, owner: string, error: string): Promise<void>;
  timerStatus(id: string): Promise<{ status: TimerStatus; attempts: number; lastError: string | null } | null>;
  /** Earliest due time of a scheduled timer, or null. */
  nextTimerDueAt(): Promise<string | null>;
  /**
   * Deletes up to `limit` timers that were completed before `doneBeforeMs` (real milliseconds); returns
   * how many. Timers completed before completion times were recorded are kept.
   */
  purgeDoneTimers(doneBeforeMs: number, limit: number): Promise<number>;
  /** How many timers are scheduled or parked, per kind and status (queue depths for /metrics); done ones are not counted. */
  timerCounts(): Promise<TimerCount[]>;

  /**
   * Calls back when projections may have committed in another process: a hint for read-your-writes
   * waiters to re-check early. It may fire spuriously or not at all; waiters keep polling.
   */
  watchCommits(onCommit: () => void): () => void;

  ping(): Promise<void>;
  close(): Promise<void>;
}

export const READ_STORE = Symbol('READ_STORE');
