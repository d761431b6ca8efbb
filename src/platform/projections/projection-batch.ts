import { RecordedEvent } from '../event-store/event-store.port';
import { CommitOutcome, DocumentStore } from '../read-store/document-store.port';
import { NewTimer } from '../read-store/timer-store.port';
import { EventProcessor, ProcessorEffects, Projection } from './projection';
import { StagedWriter } from './staged-writer';

export class ProjectionGapError extends Error {
  readonly code = 'PROJECTION_GAP';
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    /** What is missing before the event, in words. */
    readonly missing: string,
  ) {
    super(`${projection}: ${missing} (event ${event.id} of stream ${event.streamId} at position ${event.position}); refusing to skip`);
  }
}

/** The event's stream revision does not follow the last one applied. */
export const revisionGap = (projection: string, event: RecordedEvent, lastApplied: number | null): ProjectionGapError =>
  new ProjectionGapError(projection, event, `stream ${event.streamId} jumps from revision ${lastApplied ?? 'none'} to ${event.revision}`);

/** In a log of contiguous positions, the event's position does not follow the last one applied. */
export const positionGap = (projection: string, event: RecordedEvent, lastApplied: number | null): ProjectionGapError =>
  new ProjectionGapError(projection, event, `the log jumps from position ${lastApplied ?? 'none'} to ${event.position}`);

/** A subscriber handles an event of a stream it does not list in `streams`: its revisions are not tracked. */
export class UnlistedStreamError extends Error {
  readonly code = 'SUBSCRIBER_UNLISTED_STREAM';
  constructor(
    readonly subscriber: string,
    readonly event: RecordedEvent,
  ) {
    super(`${subscriber} handles ${event.type} of stream ${event.streamId}, which is not among its streams; refusing to apply it without gap detection`);
  }
}

export type Subscriber = Projection | EventProcessor;

export function isProjection(subscriber: Subscriber): subscriber is Projection {
  return 'apply' in subscriber;
}

export function readsStream(subscriber: Subscriber, streamId: string): boolean {
  return subscriber.streams.some((prefix) => streamId.startsWith(prefix));
}

/** 'deferred': nothing in the batch concerns the subscriber, and the caller asked not to commit for that. */
export type BatchOutcome = CommitOutcome | 'deferred';

export interface BatchOptions {
  /** Last revision per stream as this runner committed it; only the lease holder may pass one. */
  knownRevisions?: Map<string, number>;
  /**
   * The generation's checkpoint as this runner committed it; only the lease holder may pass one. The
   * commit is refused ('stale') if the stored checkpoint has moved past it, so every event above it is
   * unapplied when this batch commits. A stream's first event (revision 0) above it can therefore be
   * neither a duplicate nor after a gap, and its revision is not looked up: under load most events start
   * a stream (a new order), and the lookup was a read-store query per subscriber per event.
   */
  checkpoint?: number | null;
  /** Return 'deferred' instead of committing a batch that would only move the checkpoint. */
  deferCheckpointOnly?: boolean;
  /**
   * Only for a generation nothing else reads the stream revisions of until its writer says so (a
   * rebuild's shadow): the batch's revisions are added to `held` instead of committed with it, and are
   * looked up there first; `release` commits every held revision with this batch and empties `held`.
   * Committing ~1,000 revisions of random stream ids with every batch rewrote pages all over their index
   * (a sixth of the splits rebuild); committed together and in order they are appended once.
   */
  heldRevisions?: { held: Map<string, number>; release: boolean };
  /** The generation is a rebuild's shadow: its commits need not be durable before activation (ProjectionCommit.shadow). */
  shadow?: boolean;
  /** A live read model's batch: answered once committed, before its fsync (ProjectionCommit.beforeDisk). */
  beforeDisk?: boolean;
  /**
   * The log's positions are contiguous (EventStore.contiguousPositions) and the batch follows `checkpoint`
   * (which must be given): every event must sit at the position after the one before, the first right
   * after the checkpoint, or the batch stops with a gap. That proves no event was skipped, so no stream
   * revision is looked up or stored (docs/decisions.md, "Gaps found by position").
   */
  gapsByPosition?: boolean;
}

/**
 * Applies events (already ordered by position) to one generation and commits the writes, the stream
 * revisions and the checkpoint in one transaction. Only events of the subscriber's streams are tracked:
 * those at or below a stream's last applied revision are duplicates and are skipped; a revision beyond
 * the next one is a gap and stops the batch.
 */
export async function applyBatch(store: DocumentStore, subscriber: Subscriber, generation: number, events: RecordedEvent[], options: BatchOptions = {}): Promise<BatchOutcome> {
  if (events.length === 0) return 'committed';
  const batch = new PendingBatch(store, subscriber, generation, options);
  await batch.apply(events);
  return batch.commit();
}

/**
 * One batch applied in parts and committed once (applyBatch's steps). A rebuild reads its log 250 events
 * at a time and commits every 5,000: the events of a read are mostly dead by the next scavenge, while
 * 5,000 events read at once lived through a scavenge or two and were copied each time (the splits rebuild
 * copied 1.2 GB in scavenges, 0.3 GB now).
 */
export class PendingBatch {
  private readonly writer: StagedWriter;
  private readonly revisions = new Map<string, number>();
  private readonly timers: NewTimer[] = [];
  private readonly effects: ProcessorEffects = { scheduleTimer: (timer) => void this.timers.push(timer) };
  private tracked = 0;
  private lastPosition: number | null = null;
  /** A processor that names partitions processes them concurrently once the batch is checked (commit). */
  private readonly partitioned: Map<string, RecordedEvent[]> | null;

  constructor(
    private readonly store: DocumentStore,
    private readonly subscriber: Subscriber,
    private readonly generation: number,
    private readonly options: BatchOptions = {},
  ) {
    this.writer = new StagedWriter(store.generationReader(subscriber.name, generation));
    this.partitioned = !isProjection(subscriber) && subscriber.partitionOf ? new Map<string, RecordedEvent[]>() : null;
  }

  /** Events applied so far, the subscriber's or not. */
  size = 0;

  /** Applies events that follow every event given before (in position order). */
  async apply(events: RecordedEvent[]): Promise<void> {
    const { subscriber, options } = this;
    for (const event of events) {
      if (options.gapsByPosition) this.checkFollows(event);
      if (!readsStream(subscriber, event.streamId)) {
        if (subscriber.handles(event)) throw new UnlistedStreamError(subscriber.name, event);
        continue;
      }
      this.tracked += 1;
      if (options.gapsByPosition || (await this.nextOfItsStream(event))) await this.handle(event);
    }
    this.size += events.length;
    if (events.length > 0) this.lastPosition = events[events.length - 1]!.position;
  }

  /**
   * Gap detection by stream revision: false for a duplicate (at or below its stream's last applied
   * revision), a gap error beyond the next one; the event's revision is recorded for the commit.
   */
  private async nextOfItsStream(event: RecordedEvent): Promise<boolean> {
    const { subscriber, revisions, options } = this;
    const { knownRevisions, heldRevisions } = options;
    const last =
      revisions.get(event.streamId) ??
      (startsStreamUnapplied(event, options.checkpoint)
        ? null
        : (heldRevisions?.held.get(event.streamId) ??
          knownRevisions?.get(event.streamId) ??
          (await this.store.streamRevisionOf(subscriber.name, this.generation, event.streamId))));
    if (last !== null && event.revision <= last) return false;
    if (event.revision !== (last ?? -1) + 1) throw revisionGap(subscriber.name, event, last);
    revisions.set(event.streamId, event.revision);
    return true;
  }

  private async handle(event: RecordedEvent): Promise<void> {
    const { subscriber } = this;
    if (!subscriber.handles(event)) return;
    if (isProjection(subscriber)) await subscriber.apply(event, this.writer);
    else if (this.partitioned) appendTo(this.partitioned, subscriber.partitionOf!(event), event);
    else await subscriber.process(event, this.effects);
  }

  /** The event must sit at the position right after the batch's last one, the first right after the checkpoint (gapsByPosition). */
  private checkFollows(event: RecordedEvent): void {
    const { checkpoint } = this.options;
    if (checkpoint === undefined) throw new Error('gapsByPosition needs the checkpoint the batch follows');
    const last = this.lastPosition ?? checkpoint;
    if (event.position !== (last ?? 0) + 1) throw positionGap(this.subscriber.name, event, last);
    this.lastPosition = event.position;
  }

  /** Commits what was applied (at least one event), the checkpoint moving to the last event's position. */
  async commit(): Promise<BatchOutcome> {
    const { subscriber, revisions, options, store } = this;
    const { knownRevisions, heldRevisions } = options;
    if (this.lastPosition === null) throw new Error('a batch commits after at least one event');
    if (this.partitioned) await processPartitions(subscriber as EventProcessor, this.partitioned, this.effects);
    if (this.tracked === 0 && options.deferCheckpointOnly) return 'deferred';
    if (!isProjection(subscriber) && subscriber.beforeCheckpoint) await subscriber.beforeCheckpoint(this.lastPosition);
    const outcome = await store.commitProjection({
      projection: subscriber.name,
      generation: this.generation,
      checkpoint: this.lastPosition,
      after: options.checkpoint,
      streamRevisions: heldRevisions ? (heldRevisions.release ? sortedRecordOf(heldRevisions.held, revisions) : {}) : recordOf(revisions),
      writes: this.writer.writes(),
      timers: this.timers,
      shadow: options.shadow,
      beforeDisk: options.beforeDisk,
    });
    if (outcome === 'committed') {
      for (const [streamId, revision] of revisions) knownRevisions?.set(streamId, revision);
      if (heldRevisions) holdOrRelease(heldRevisions, revisions);
    }
    // A cache, not a record: drop it when stale, or when it grows past what is worth keeping in memory.
    if (outcome !== 'committed' || (knownRevisions?.size ?? 0) > 100_000) knownRevisions?.clear();
    return outcome;
  }
}

/**
 * A null-prototype object starts as a hash table; a plain one built from a thousand distinct stream ids
 * made a new hidden class per key first, 6% of a rebuild.
 */
function recordOf(revisions: Map<string, number>): Record<string, number> {
  const record = Object.create(null) as Record<string, number>;
  for (const [streamId, revision] of revisions) record[streamId] = revision;
  return record;
}

function holdOrRelease(heldRevisions: NonNullable<BatchOptions['heldRevisions']>, committed: Map<string, number>): void {
  if (heldRevisions.release) heldRevisions.held.clear();
  else for (const [streamId, revision] of committed) heldRevisions.held.set(streamId, revision);
}

/**
 * The held revisions overlaid with this batch's, in stream id order (the default sort's UTF-16 order, as
 * `<` compares): the store's revision index takes them as appends. Merged by key: copying both maps'
 * entries into a new map cost a sixth of this function in the splits rebuild (it releases ~100,000 at a time).
 */
function sortedRecordOf(held: Map<string, number>, batch: Map<string, number>): Record<string, number> {
  const streamIds = [...held.keys()];
  for (const streamId of batch.keys()) if (!held.has(streamId)) streamIds.push(streamId);
  const record = Object.create(null) as Record<string, number>;
  for (const streamId of streamIds.sort()) record[streamId] = batch.get(streamId) ?? held.get(streamId)!;
  return record;
}

function appendTo(partitions: Map<string, RecordedEvent[]>, key: string, event: RecordedEvent): void {
  const list = partitions.get(key);
  if (list) list.push(event);
  else partitions.set(key, [event]);
}

/**
 * Each partition's events in log order, the partitions concurrently. Every partition runs to its end or
 * its first failure before the batch fails, so no command of this batch is still running when the runner
 * retries it (commands are idempotent; the checkpoint has not moved).
 */
async function processPartitions(processor: EventProcessor, partitions: Map<string, RecordedEvent[]>, effects: ProcessorEffects): Promise<void> {
  const outcomes = await Promise.allSettled(
    [...partitions.values()].map(async (list) => {
      for (const event of list) await processor.process(event, effects);
    }),
  );
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

function startsStreamUnapplied(event: RecordedEvent, checkpoint: number | null | undefined): boolean {
  return event.revision === 0 && checkpoint !== undefined && (checkpoint === null || event.position > checkpoint);
}
