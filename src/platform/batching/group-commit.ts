/**
 * Collects the writes asked for in one turn of the event loop and commits them in one call (one
 * transaction), like a database's group commit: each caller's promise settles with its own result once
 * its batch is committed, or with the batch's error.
 */
export class GroupCommit<T, R> {
  private pending: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 1_000,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.commit(batch.map((entry) => entry.item)).then(
      (results) => batch.forEach((entry, i) => entry.resolve(results[i]!)),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  }
}
