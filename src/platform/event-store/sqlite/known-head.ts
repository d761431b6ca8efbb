import { performance } from 'node:perf_hooks';

/** What an at-head read knew when it began: the commits told of so far, and when. */
export interface ReadStart {
  readonly commitsToldOf: number;
  readonly atMs: number;
}

/**
 * Where the last read that reached the end of the log found it. While no commit has been told of since
 * that read began, nothing lies after that position, so a caught-up subscriber's next read is answered
 * without SQLite: each commit woke every subscriber of the worker, and each of them (about 30) then read
 * an empty run from the file to learn it was at the end (34,285 empty reads to 946 with events in one split
 * bench run, about 120 us of the worker's CPU per Split create; docs/decisions.md).
 *
 * "Told of" is everything that wakes subscribers: this process's own appends, the commit signal of other
 * processes and, for a writer that signals nothing, the data_version check. The answer expires after
 * `maxAgeMs` (the subscriptions' last-resort poll interval), so a lost wake-up still ends in a read.
 */
export class KnownHead {
  private commitsToldOf = 0;
  private head: { position: number; start: ReadStart } | null = null;

  constructor(
    private readonly maxAgeMs: number,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  commitToldOf(): void {
    this.commitsToldOf += 1;
  }

  /** Taken just before a read of the log, for `reachedEnd`. */
  readStart(): ReadStart {
    return { commitsToldOf: this.commitsToldOf, atMs: this.nowMs() };
  }

  /** A read that began at `start` returned fewer events than it asked for: the log ended at `position`. */
  reachedEnd(position: number, start: ReadStart): void {
    if (this.head && this.head.start.commitsToldOf > start.commitsToldOf) return;
    this.head = { position, start };
  }

  /** Whether the log certainly holds nothing after `after` (else it must be read). */
  nothingAfter(after: number): boolean {
    const head = this.head;
    return head !== null && after >= head.position && head.start.commitsToldOf === this.commitsToldOf && this.nowMs() - head.start.atMs < this.maxAgeMs;
  }
}
