import { EventStore } from '../event-store/event-store.port';
import { ReadStore } from '../read-store/read-store.port';
import { applyBatch } from './projection-batch';
import { Projection } from './projection';

export interface RebuildProgress {
  projection: string;
  applied: number;
  total: number;
  eventsPerSecond: number;
  etaSeconds: number | null;
}

/**
 * Replays the whole log into a fresh shadow generation while the active one keeps serving, then swaps
 * it in. Whatever is appended after the swap is picked up by the live runner from the shadow's checkpoint.
 */
export async function rebuildProjection(
  events: EventStore,
  store: ReadStore,
  projection: Projection,
  options: { batchSize?: number; onProgress?: (p: RebuildProgress) => void; nowMs: () => number },
): Promise<{ generation: number; applied: number }> {
  await store.registerProjection(projection.name, projection.collections);
  const generation = await store.createShadowGeneration(projection.name);
  const started = options.nowMs();
  let applied = 0;
  let after: number | undefined;
  for (;;) {
    const batch = await events.readAll({ after, maxCount: options.batchSize ?? 1000 });
    if (batch.length === 0) break;
    const outcome = await applyBatch(store, projection, generation, batch);
    if (outcome !== 'committed') throw new Error(`shadow generation ${generation} of ${projection.name} was retired during rebuild`);
    applied += batch.length;
    after = batch[batch.length - 1]!.position;
    const head = (await events.headPosition()) ?? after;
    const elapsedSeconds = Math.max((options.nowMs() - started) / 1000, 1e-3);
    const rate = applied / elapsedSeconds;
    const remaining = Math.max(0, head - after);
    options.onProgress?.({
      projection: projection.name,
      applied,
      total: applied + remaining,
      eventsPerSecond: rate,
      etaSeconds: rate > 0 ? remaining / rate : null,
    });
  }
  await store.activateGeneration(projection.name, generation);
  return { generation, applied };
}
