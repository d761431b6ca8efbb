import { EventStore } from '../event-store/event-store.port';
import { DocumentStore } from '../read-store/document-store.port';

/**
 * A subscriber's stored checkpoint is past the end of the log: the event store lost commits the read
 * store had already seen (a restored older copy of events.db, or commits that were never on disk).
 * Starting would hand the lost positions to new events, and every subscriber already past them would
 * skip those events; the read models also hold what the lost events did. No automatic repair is safe.
 */
export class CheckpointBeyondLogError extends Error {
  readonly code = 'CHECKPOINT_BEYOND_LOG';
  constructor(
    readonly ahead: { name: string; checkpoint: number }[],
    readonly head: number | null,
  ) {
    super(
      `refusing to start: the read store is ahead of the event log (${ahead.map((a) => `${a.name} at ${a.checkpoint}`).join(', ')}; ` +
        `the log ends at ${head ?? 'nothing'}). The event store lost commits the read store had applied, so new events would reuse ` +
        `their positions and be skipped. Restore the event store (events.db) from a copy at least as recent as the read store ` +
        `(read.db), or restore both from copies taken together (docs/operations.md, "Durability and recovery").`,
    );
  }
}

/** Checked at start, before any subscriber runs or any request is served (issue 31). */
export async function assertCheckpointsWithinLog(events: EventStore, store: DocumentStore, subscribers: readonly string[]): Promise<void> {
  const head = await events.headPosition();
  const ahead: { name: string; checkpoint: number }[] = [];
  for (const name of subscribers) {
    const { checkpoint } = await store.projectionState(name);
    if (checkpoint !== null && checkpoint > (head ?? 0)) ahead.push({ name, checkpoint });
  }
  if (ahead.length > 0) throw new CheckpointBeyondLogError(ahead, head);
}
