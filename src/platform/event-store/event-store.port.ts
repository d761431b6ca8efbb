/**
 * The event store port. Two adapters implement it (SQLite embedded, EventStoreDB) and both must pass
 * test/contract/event-store.contract.ts. Revisions are 0-based per stream; positions are global,
 * strictly increasing across the whole log, and contiguous only where the adapter says so
 * (`contiguousPositions`: SQLite's are 1, 2, 3...; EventStoreDB's are byte offsets). Consumers
 * de-duplicate and detect gaps by stream revision, or by position arithmetic where positions are contiguous.
 * Every event has its own position, also each event of a multi-event append: reading or subscribing
 * after the position of one event of an append returns the later events of that same append.
 */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface EventMetadata {
  correlationId: string;
  causationId: string | null;
  actor: string;
  occurredAt: string;
  [extra: string]: unknown;
}

export interface NewEvent<T extends string = string, D = unknown> {
  id: string;
  type: T;
  data: D;
  metadata: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = unknown> extends NewEvent<T, D> {
  streamId: string;
  revision: number;
  position: number;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: number;
  /**
   * Global position of the last event appended (or of the original write on an idempotent replay): exactly
   * the `position` that readAll and subscribeToAll report for that event, so waiting for it is exact.
   */
  position: number;
}

export interface ReadAllOptions {
  /** Exclusive: return events with position > after. Omit to start at the beginning. */
  after?: number;
  maxCount?: number;
  /**
   * A hint: only events of streams with one of these id prefixes are wanted (a projection rebuild reads
   * only its own streams). An adapter may skip the others without reading them, or ignore the hint and
   * return every event; callers must handle both. Every event of a matching stream is returned.
   */
  streamPrefixes?: readonly string[];
}

export type SubscriptionHandler = (event: RecordedEvent) => Promise<void>;

export interface Subscription {
  /** Stops delivery; resolves once the handler is no longer running. */
  stop(): Promise<void>;
  /**
   * Resolves, at most once, when delivery ends for any reason other than stop():
   * - the handler threw: with that error (the event it threw on counts as not delivered);
   * - the store stopped serving the subscription: the server dropped it or ended it, the connection was
   *   lost, or the store was closed underneath it: with an error saying so.
   * Once it resolves no further event is delivered; the subscription does not reconnect by itself. The
   * caller stops it and subscribes again from its own checkpoint (SubscriberRunner retries with backoff).
   * Never resolves after stop() was called.
   */
  readonly failed: Promise<Error>;
}

export interface EventStore {
  /**
   * True when the log's events sit at positions 1, 2, 3... with none unused (a rejected or rolled-back
   * append takes no position) and a read or subscription after a position returns the next positions in
   * turn: a consumer may then find a gap by position arithmetic (SubscriberRunner). False when positions
   * have holes (EventStoreDB: byte offsets in its log).
   */
  readonly contiguousPositions: boolean;
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream in revision order; [] for a stream that does not exist. */
  readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]>;
  /** Events of every stream in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the last event in the log, or null when the log is empty. */
  headPosition(): Promise<number | null>;
  /**
   * Catch-up then live: delivers every event with position > after (all events when after is null)
   * in global order, one at a time, awaiting the handler; then keeps delivering new events.
   */
  subscribeToAll(after: number | null, handler: SubscriptionHandler): Subscription;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

/**
 * The store could not take its write lock in time (another writer held it past the busy timeout): nothing of
 * this append was written. The API answers 503 STORE_BUSY with Retry-After; a request that appended
 * before it may have recorded those appends, so it is retried like any 5xx (with its idempotency key).
 */
export class StoreBusyError extends Error {
  readonly code = 'STORE_BUSY';
  constructor(cause: Error) {
    super(`The event store was busy; nothing was written (${cause.message})`, { cause });
  }
}

/** The optimistic-concurrency check failed: the stream was not at the expected revision. */
export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId} expected at ${String(expected)} but is at ${String(actual)}`);
  }
}
