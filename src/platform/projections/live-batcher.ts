import { performance } from 'node:perf_hooks';
import { RecordedEvent } from '../event-store/event-store.port';

/**
 * Groups events a live subscription hands over one at a time into batches, so a burst of appends
 * costs one read-store transaction per batch instead of one per event. A batch is flushed when it is
 * full or on the next turn of the event loop, but no sooner than `minIntervalMs` after the previous
 * flush began: an idle subscriber commits at once, a busy one commits at most once per interval, in
 * bigger batches. Nothing is lost on a crash because the checkpoint only moves with a committed batch.
 */
export class LiveBatcher {
  private buffer: RecordedEvent[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;
  private reportFailure!: (error: Error) => void;
  /** Resolves with the error of a flush that ran in the background. */
  readonly failed = new Promise<Error>((resolve) => (this.reportFailure = resolve));

  private lastFlushAt = -Infinity;

  constructor(
    private readonly commit: (batch: RecordedEvent[]) => Promise<void>,
    private readonly maxBatch: number,
    private readonly minIntervalMs = 0,
  ) {}

  async add(event: RecordedEvent): Promise<void> {
    this.buffer.push(event);
    if (this.buffer.length >= this.maxBatch) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      const run = () => {
        this.scheduled = false;
        this.flush().catch((error: unknown) => this.reportFailure(error instanceof Error ? error : new Error(String(error))));
      };
      const wait = this.lastFlushAt + this.minIntervalMs - performance.now();
      if (wait > 0) setTimeout(run, wait);
      else setImmediate(run);
    }
  }

  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.lastFlushAt = performance.now();
    this.flushing = this.commit(batch).finally(() => (this.flushing = null));
    await this.flushing;
  }
}
