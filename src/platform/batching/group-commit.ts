import { performance } from 'node:perf_hooks';

/**
 * Collects the writes asked for in one turn of the event loop and commits them in one call (one
 * transaction), like a database's group commit: each caller's promise settles with its own result once
 * its batch is committed, or with the batch's error. With `minIntervalMs`, a batch is committed no
 * sooner than that long after the previous one began (unless it is full): an idle writer commits at
 * once, a busy one commits less often in bigger batches (each durable commit is an fsync).
 */
export class GroupCommit<T, R> {
  private pending: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private lastFlushAt = -Infinity;

  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 1_000,
    private readonly minIntervalMs = 0,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        const run = () => {
          this.scheduled = false;
          this.flush();
        };
        const wait = this.lastFlushAt + this.minIntervalMs - performance.now();
        if (wait > 0) setTimeout(run, wait);
        else setImmediate(run);
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.lastFlushAt = performance.now();
    this.commit(batch.map((entry) => entry.item)).then(
      (results) => batch.forEach((entry, i) => entry.resolve(results[i]!)),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  }
}
