import { Clock } from '../clock/clock';
import { NewTimer, ReadStore, Timer } from '../read-store/read-store.port';
import { AppLogger } from '../logging/app-logger';

const KEEP_DONE_TIMERS_MS = 7 * 86_400_000;
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 2_000;
/** At most this many batches a pass (100,000 rows a minute), yielding to the event loop between them. */
const PURGE_BATCHES_PER_PASS = 50;

/** Fires one kind of timer. Throwing means "try again later"; handlers must be idempotent. */
export type TimerHandler = (timer: Timer) => Promise<void>;

export interface TimerWorkerOptions {
  owner: string;
  pollIntervalMs: number;
  leaseMs: number;
  batchSize: number;
  /** Timers of one claimed batch fired at once (webhook attempts wait on the network). */
  concurrency: number;
  /** Delay before the next attempt after `attempts` failures; null parks the timer. */
  retryDelayMs: (attempts: number) => number | null;
  realNowMs: () => number;
}

/**
 * Fires durable timers (rows in the read store) when the Clock reaches their due time. Each timer is
 * claimed with a lease, so several workers never fire the same timer at once.
 */
export class TimerWorker {
  private readonly handlers = new Map<string, TimerHandler>();
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly store: ReadStore,
    private readonly clock: Clock,
    private readonly logger: AppLogger,
    private readonly options: TimerWorkerOptions,
  ) {}

  register(kind: string, handler: TimerHandler): void {
    if (this.handlers.has(kind)) throw new Error(`Timer kind ${kind} already has a handler`);
    this.handlers.set(kind, handler);
  }

  async schedule(timer: NewTimer): Promise<void> {
    await this.store.scheduleTimer(timer);
    // Only a timer already due needs the worker now; a later one is found by the regular poll.
    if (timer.dueAt <= this.clock.now().toISOString()) this.wake?.();
  }

  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** Fires everything due now; returns how many timers ran. */
  async fireDue(): Promise<number> {
    let fired = 0;
    for (;;) {
      const due = await this.store.claimDueTimers(
        this.clock.now().toISOString(),
        this.options.owner,
        this.options.realNowMs(),
        this.options.leaseMs,
        this.options.batchSize,
      );
      if (due.length === 0) return fired;
      await inParallel(due, this.options.concurrency, (timer) => this.fire(timer));
      fired += due.length;
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.fireDue();
        await this.purgeIfDue();
      } catch (error) {
        this.logger.error({ err: error }, 'timer worker pass failed; retrying');
      }
      await this.sleep();
    }
  }

  private lastPurgeMs = -Infinity;

  /**
   * Done timers are kept for a week after they completed, in real time (scheduling is idempotent on id,
   * so a replayed schedule must still find them; the sandbox clock must not shorten that), then deleted,
   * so the table does not grow by a row per order forever.
   */
  private async purgeIfDue(): Promise<void> {
    const now = this.options.realNowMs();
    if (now - this.lastPurgeMs < PURGE_EVERY_MS) return;
    this.lastPurgeMs = now;
    let purged = 0;
    for (let batch = 0; batch < PURGE_BATCHES_PER_PASS; batch++) {
      const deleted = await this.store.purgeDoneTimers(now - KEEP_DONE_TIMERS_MS, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (purged > 0) this.logger.info({ purged }, 'purged done timers');
  }

  private async fire(timer: Timer): Promise<void> {
    const handler = this.handlers.get(timer.kind);
    try {
      if (!handler) throw new Error(`No handler for timer kind ${timer.kind}`);
      await handler(timer);
      await this.store.completeTimer(timer.id, this.options.owner, this.options.realNowMs());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = this.options.retryDelayMs(timer.attempts + 1);
      if (delay === null) {
        this.logger.error({ timer: timer.id, kind: timer.kind, err: error }, 'timer parked after repeated failures');
        await this.store.parkTimer(timer.id, this.options.owner, message);
      } else {
        this.logger.warn({ timer: timer.id, kind: timer.kind, err: error }, 'timer failed; will retry');
        await this.store.retryTimer(timer.id, this.options.owner, new Date(this.clock.now().getTime() + delay).toISOString(), message);
      }
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollIntervalMs);
      this.wake = done;
    });
  }
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
