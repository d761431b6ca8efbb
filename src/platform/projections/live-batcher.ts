import { performance } from 'node:perf_hooks';
import { RecordedEvent } from '../event-store/event-store.port';

/**
 * Groups events a live subscription hands over one at a time into batches, so a burst of appends
 * costs one read-store transaction per batch instead of one per event. A batch is flushed when it is
 * full or on the next turn of the event loop, but no sooner than `minIntervalMs` after the previous
 * flush began: an idle subscriber commits at once, a busy one commits at most once per interval, in
 * bigger batches. Nothing is lost on a crash because the checkpoint only moves with a committed batch.
 *
 * After a failed commit the batcher is closed: it drops what it holds and never commits again, so no
 * later batch can move the checkpoint past the events that failed. The runner starts a new one.
 */
export class LiveBatcher {
  private buffer: RecordedEvent[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private closed = false;
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
    if (this.closed) return;
    this.buffer.push(event);
    if (this.buffer.length >= this.maxBatch) return this.flush();
    if (!this.scheduled) {
      const run = () => {
        this.scheduled = null;
        this.flush().catch((error: unknown) => this.reportFailure(error instanceof Error ? error : new Error(String(error))));
      };
      const wait = this.lastFlushAt + this.minIntervalMs - performance.now();
      this.scheduled = wait > 0 ? setTimeout(run, wait) : setImmediate(run);
    }
  }

  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.closed || this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.lastFlushAt = performance.now();
    this.flushing = this.commit(batch)
      .catch((error: unknown) => {
        this.close();
        throw error;
      })
      .finally(() => (this.flushing = null));
    await this.flushing;
  }

  /** Resolves once no commit is under way (one that was ends either way; its failure is reported through `failed`). */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
  }

  /** Drops the events not yet committed and cancels the next flush; a commit under way finishes. */
  close(): void {
    this.closed = true;
    this.buffer = [];
    if (this.scheduled) {
      clearTimeout(this.scheduled as NodeJS.Timeout);
      clearImmediate(this.scheduled as NodeJS.Immediate);
      this.scheduled = null;
    }
  }
}
