import { RecordedEvent } from '../event-store/event-store.port';
import { CollectionSpec, Doc, DocumentReader } from '../read-store/document-store.port';
import { NewTimer } from '../read-store/timer-store.port';
/**
 * What a projection may do while applying one event: read its own documents and stage writes. `get` and
 * `find` return the caller's own copies, and `put` keeps its own: changing an object after putting it
 * changes nothing stored.
 */
export interface ProjectionWriter extends DocumentReader {
  /** Name the document type (`put<SplitView>(...)`) so the compiler checks what is stored. */
  put<T extends Doc>(collection: string, doc: T): void;
  delete(collection: string, id: string): void;
  /**
   * The batch's own working copy of the document, to change in place: what it holds when the batch
   * commits is stored (a `put` or `delete` of it ends that). For a projection that changes a few fields
   * of a big document on each of many events: the document is copied once per batch, not per event
   * (copying it on every read and write was most of a rebuild's time: npm run bench -- rebuild).
   */
  edit<T extends Doc>(collection: string, id: string): Promise<T | null>;
}

/**
 * The streams a subscriber reads, by id prefix (e.g. `split-`). Every event of those streams is checked
 * for duplicates and gaps by stream revision; events of other streams only move its checkpoint. An event
 * the subscriber handles from a stream outside them is a wiring mistake and stops it loudly.
 */
export type StreamPrefixes = readonly string[];

/**
 * A read model built from the global log. `apply` must be deterministic and touch only its own
 * collections: rebuilding from scratch has to give the same documents.
 */
export interface Projection {
  readonly name: string;
  readonly streams: StreamPrefixes;
  readonly collections: CollectionSpec[];
  /**
   * Optional, default 1: raise it when `apply` starts writing something the documents built by the
   * previous code lack (new documents, new fields derived from old events). The read store records the
   * version each generation was built with; at start, a projection whose active generation is older is
   * rebuilt from the beginning of the log by its runner (docs/decisions.md, "Projection versions").
   */
  readonly version?: number;
  handles(event: RecordedEvent): boolean;
  apply(event: RecordedEvent, writer: ProjectionWriter): Promise<void>;
}

/** The version a projection's code declares (1 when it declares none). */
export function projectionVersion(projection: Projection): number {
  return projection.version ?? 1;
}

/**
 * A process manager reacts to events by issuing commands. It is checkpointed like a projection but owns
 * no documents and is never rebuilt (replaying it would re-issue commands); its commands are idempotent.
 */
export interface EventProcessor {
  readonly name: string;
  readonly streams: StreamPrefixes;
  handles(event: RecordedEvent): boolean;
  process(event: RecordedEvent, effects: ProcessorEffects): Promise<void>;
  /**
   * Optional: the key of what an event is about (a Split, a payout). Within a batch, events of different
   * keys are processed concurrently (their commands' appends then share group commits), events of one
   * key one after another in log order. Without it, every event waits for the one before it. The batch
   * still commits its checkpoint only once every event of it has been processed.
   */
  partitionOf?(event: RecordedEvent): string;
  /**
   * Optional, for a processor whose effects live in a store of their own (the webhook dispatcher's
   * deliveries, in webhooks.db): called once a batch's events are processed, before the checkpoint that
   * covers them is committed, to record in that store that its effects are stored up to `checkpoint`.
   */
  beforeCheckpoint?(checkpoint: number): Promise<void>;
  /**
   * Optional: called under the lease before the processor follows the log, with its stored checkpoint.
   * Each file can lose its last commits on its own (a power loss before durable commits, a restored
   * copy): a processor whose effects store is behind its checkpoint redoes the events in between
   * (its commands are idempotent), so none is skipped.
   */
  recover?(checkpoint: number | null): Promise<void>;
}

/**
 * What a process manager may stage while processing an event: stored in the transaction that moves its
 * checkpoint, so a staged timer exists exactly when the event counts as processed. The timer worker
 * finds it on its next poll.
 */
export interface ProcessorEffects {
  scheduleTimer(timer: NewTimer): void;
}
