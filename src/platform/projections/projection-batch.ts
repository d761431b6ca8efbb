import { RecordedEvent } from '../event-store/event-store.port';
import { CommitOutcome, ReadStore } from '../read-store/read-store.port';
import { EventProcessor, Projection } from './projection';
import { StagedWriter } from './staged-writer';

export class ProjectionGapError extends Error {
  readonly code = 'PROJECTION_GAP';
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    readonly lastApplied: number | null,
  ) {
    super(
      `${projection}: stream ${event.streamId} jumps from revision ${lastApplied ?? 'none'} to ${event.revision} ` +
        `(event ${event.id} at position ${event.position}); refusing to skip`,
    );
  }
}

export type Subscriber = Projection | EventProcessor;

export function isProjection(subscriber: Subscriber): subscriber is Projection {
  return 'apply' in subscriber;
}

/**
 * Applies events (already ordered by position) to one generation and commits the writes, the stream
 * revisions and the checkpoint in one transaction. Events at or below a stream's last applied revision
 * are duplicates and are skipped; a revision beyond the next one is a gap and stops the batch.
 */
export async function applyBatch(
  store: ReadStore,
  subscriber: Subscriber,
  generation: number,
  events: RecordedEvent[],
  /** Last revision per stream as this runner committed it; only the lease holder may pass one. */
  knownRevisions?: Map<string, number>,
): Promise<CommitOutcome> {
  if (events.length === 0) return 'committed';
  const writer = new StagedWriter(store.generationReader(subscriber.name, generation));
  const revisions: Record<string, number> = {};
  for (const event of events) {
    const last = event.streamId in revisions
      ? revisions[event.streamId]!
      : (knownRevisions?.get(event.streamId) ?? (await store.streamRevisionOf(subscriber.name, generation, event.streamId)));
    if (last !== null && event.revision <= last) continue;
    if (event.revision !== (last ?? -1) + 1) throw new ProjectionGapError(subscriber.name, event, last);
    if (subscriber.handles(event)) {
      if (isProjection(subscriber)) await subscriber.apply(event, writer);
      else await subscriber.process(event);
    }
    revisions[event.streamId] = event.revision;
  }
  const outcome = await store.commitProjection({
    projection: subscriber.name,
    generation,
    checkpoint: events[events.length - 1]!.position,
    streamRevisions: revisions,
    writes: writer.writes(),
  });
  if (outcome === 'committed') for (const [streamId, revision] of Object.entries(revisions)) knownRevisions?.set(streamId, revision);
  // A cache, not a record: drop it when stale, or when it grows past what is worth keeping in memory.
  if (outcome !== 'committed' || (knownRevisions?.size ?? 0) > 100_000) knownRevisions?.clear();
  return outcome;
}
