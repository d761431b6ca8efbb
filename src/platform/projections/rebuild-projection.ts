import { randomUUID } from 'node:crypto';
import { EventStore } from '../event-store/event-store.port';
import { DocumentStore } from '../read-store/document-store.port';
import { LeaseStore } from '../read-store/lease-store.port';
import { PendingBatch } from './projection-batch';
import { Projection, projectionVersion } from './projection';

export interface RebuildProgress {
  projection: string;
  applied: number;
  total: number;
  eventsPerSecond: number;
  etaSeconds: number | null;
}

/**
 * Events per read and per commit. Bigger batches mean fewer transactions and more documents updated in
 * memory (staged) between reads; 5,000 Split-sized documents are a few MB (npm run bench -- rebuild).
 */
const REBUILD_BATCH_SIZE = 5_000;

/**
 * Events per read of the log, applied into the batch one read at a time, so that most are dead by the
 * next scavenge (PendingBatch). Measured against 1,000 and 100: 1,000 left twice what 250 leaves to copy.
 */
const REBUILD_READ_SIZE = 250;

/**
 * Stream revisions held in memory before a batch commits them anyway (a few MB), where they are stored at
 * all: on a log of contiguous positions none is stored and all are held to the end (one entry per stream).
 */
const HELD_REVISIONS_LIMIT = 100_000;

/** Held by the one rebuild of a projection that may run at a time. */
const REBUILD_LEASE_MS = 60_000;
/**
 * Renewed after a batch once this long has passed since the last renewal, not after every batch: each
 * renewal is a durable commit of its own (an fsync), and a batch takes well under the lease's remaining
 * 50 s, as it had to take under its 60 s when it was renewed every batch.
 */
const LEASE_RENEWAL_MS = 10_000;

export class RebuildAlreadyRunningError extends Error {
  readonly code = 'REBUILD_ALREADY_RUNNING';
  constructor(readonly projection: string) {
    super(`another rebuild of ${projection} is running (lease rebuild:${projection}); wait for it to finish`);
  }
}

/**
 * Replays the whole log into a fresh shadow generation while the active one keeps serving, then swaps
 * it in. Whatever is appended after the swap is picked up by the live runner from the shadow's checkpoint.
 * One rebuild per projection at a time (a lease); holding it, the rebuild first drops the shadows an
 * interrupted rebuild left behind.
 */
export async function rebuildProjection(
  events: EventStore,
  store: DocumentStore & LeaseStore,
  projection: Projection,
  options: { batchSize?: number; onProgress?: (p: RebuildProgress) => void; onDiscarded?: (generations: number[]) => void; nowMs: () => number },
): Promise<{ generation: number; applied: number }> {
  const lease = `rebuild:${projection.name}`;
  const owner = randomUUID();
  let renewedAt = options.nowMs();
  if (!(await store.tryAcquireLease(lease, owner, renewedAt, REBUILD_LEASE_MS))) throw new RebuildAlreadyRunningError(projection.name);
  const holdLease = async () => {
    const now = options.nowMs();
    if (now - renewedAt < LEASE_RENEWAL_MS) return true;
    renewedAt = now;
    return store.tryAcquireLease(lease, owner, now, REBUILD_LEASE_MS);
  };
  try {
    return await replayIntoShadow(events, store, projection, options, holdLease);
  } finally {
    await store.releaseLease(lease, owner);
  }
}

async function replayIntoShadow(
  events: EventStore,
  store: DocumentStore,
  projection: Projection,
  options: Parameters<typeof rebuildProjection>[3],
  holdLease: () => Promise<boolean>,
): Promise<{ generation: number; applied: number }> {
  await store.registerProjection(projection.name, projection.collections, projectionVersion(projection));
  const discarded = await store.discardShadowGenerations(projection.name);
  if (discarded.length > 0) options.onDiscarded?.(discarded);
  // The shadow is built by this code: it records this code's version, and activating it ends an outdated one.
  const generation = await store.createShadowGeneration(projection.name, projectionVersion(projection));
  const started = options.nowMs();
  const batchSize = options.batchSize ?? REBUILD_BATCH_SIZE;
  const readSize = Math.min(batchSize, REBUILD_READ_SIZE);
  const read = (from: number | undefined) => events.readAll({ after: from, maxCount: readSize, streamPrefixes: projection.streams });
  let applied = 0;
  let after: number | undefined;
  // The shadow generation is written by this rebuild alone (it holds the lease), so, like a live runner,
  // it may trust its own checkpoint and the revisions it committed instead of looking each stream up.
  // And nothing reads those revisions before the shadow is activated: they are held in memory (where
  // they are looked up) and committed with the last batch, or every HELD_REVISIONS_LIMIT streams. On a
  // log of contiguous positions the live runner that follows the shadow finds gaps by position and reads
  // no revision, so they are never stored: held for the whole rebuild, they still check every stream
  // read here (a rebuild reads only its projection's streams, so its positions have holes by design).
  const storeRevisions = !events.contiguousPositions;
  const held = new Map<string, number>();
  // Read the head first: once a read of the projection's own streams finds nothing after `after`, every
  // event up to that head has been considered, and the checkpoint may move there. The next read is made
  // before each batch commits, so the last batch knows it is the last.
  let head = await events.headPosition();
  let next = await read(after);
  while (next.length > 0) {
    const heldRevisions = { held, release: false };
    const batch = new PendingBatch(store, projection, generation, { checkpoint: after ?? null, heldRevisions, shadow: true });
    let last = after ?? 0;
    let headBeforeRead = head;
    while (next.length > 0 && batch.size < batchSize) {
      await batch.apply(next);
      last = next[next.length - 1]!.position;
      headBeforeRead = await events.headPosition();
      next = await read(last);
    }
    const isLast = next.length === 0;
    heldRevisions.release = storeRevisions && (isLast || held.size >= HELD_REVISIONS_LIMIT);
    const outcome = await batch.commit();
    if (outcome !== 'committed') throw new Error(`shadow generation ${generation} of ${projection.name} was retired during rebuild`);
    if (!(await holdLease())) throw new RebuildAlreadyRunningError(projection.name);
    applied += batch.size;
    after = last;
    const logHead = (await events.headPosition()) ?? after;
    const elapsedSeconds = Math.max((options.nowMs() - started) / 1000, 1e-3);
    const rate = applied / elapsedSeconds;
    const remaining = Math.max(0, logHead - after);
    options.onProgress?.({
      projection: projection.name,
      applied,
      total: applied + remaining,
      eventsPerSecond: rate,
      etaSeconds: rate > 0 ? remaining / rate : null,
    });
    head = headBeforeRead;
  }
  if (head !== null && head > (after ?? 0)) {
    const outcome = await store.commitProjection({
      projection: projection.name,
      generation,
      checkpoint: head,
      after: after ?? null,
      streamRevisions: {},
      writes: [],
      shadow: true,
    });
    if (outcome !== 'committed') throw new Error(`shadow generation ${generation} of ${projection.name} was retired during rebuild`);
  }
  await store.activateGeneration(projection.name, generation);
  return { generation, applied };
}
