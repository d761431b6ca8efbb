import { Clock } from '../clock/clock';
import { NewTimer, Timer, TimerStore } from '../read-store/timer-store.port';
import { AppLogger } from '../logging/app-logger';

const KEEP_DONE_TIMERS_MS = 7 * 86_400_000;
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 2_000;
/** At most this many batches a pass (100,000 rows a minute), yielding to the event loop between them. */
const PURGE_BATCHES_PER_PASS = 50;

/** Fires one kind of timer. Throwing means "try again later"; handlers must be idempotent. */
export type TimerHandler = (timer: Timer) => Promise<void>;

/** Deletes up to `limit` rows that are no longer needed at real time `realNowMs`; returns how many. */
export type Purge = (realNowMs: number, limit: number) => Promise<number>;

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
  private readonly purges = new Map<string, Purge>([
    // Done timers are kept for a week after they completed, in real time: scheduling is idempotent on
    // id, so a replayed schedule must still find them, and the sandbox clock must not shorten that.
    ['done timers', (realNowMs, limit) => this.store.purgeDoneTimers(realNowMs - KEEP_DONE_TIMERS_MS, limit)],
  ]);
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly store: TimerStore,
    private readonly clock: Clock,
    private readonly logger: AppLogger,
    private readonly options: TimerWorkerOptions,
  ) {}

  register(kind: string, handler: TimerHandler): void {
    if (this.handlers.has(kind)) throw new Error(`Timer kind ${kind} already has a handler`);
    this.handlers.set(kind, handler);
  }

  /** Adds a clean-up that runs with the done-timer purge: once a minute, in batches, where timers fire. */
  addPurge(what: string, purge: Purge): void {
    if (this.purges.has(what)) throw new Error(`A purge of ${what} is already registered`);
    this.purges.set(what, purge);
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
      const due = await this.store.claimDueTimers(this.clock.now().toISOString(), this.options.owner, this.options.realNowMs(), this.options.leaseMs, this.options.batchSize);
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
      // A stop() during the pass found nothing to wake: without this check it would wait a poll interval.
      if (!this.stopped) await this.sleep();
    }
  }

  private lastPurgeMs = -Infinity;
  /** True while stop() waits for the loop: a purge under way ends after its current batch. */
  private get stopping(): boolean {
    return this.stopped && this.loop !== null;
  }

  private async purgeIfDue(): Promise<void> {
    const now = this.options.realNowMs();
    if (now - this.lastPurgeMs < PURGE_EVERY_MS) return;
    this.lastPurgeMs = now;
    await this.purge();
  }

  /**
   * Runs every purge (done timers, and what modules added); the loop calls it once a minute, so tables
   * that gain a row per order or per login do not grow forever. Each purge deletes at most
   * PURGE_BATCHES_PER_PASS batches, and a stop() ends it after the current batch; a failing purge is
   * logged and does not stop the others.
   */
  async purge(): Promise<void> {
    const now = this.options.realNowMs();
    for (const [what, purge] of this.purges) {
      if (this.stopping) return;
      try {
        const purged = await this.runPurge(purge, now);
        if (purged > 0) this.logger.info({ purged, what }, `purged ${what}`);
      } catch (error) {
        this.logger.error({ err: error, what }, `purging ${what} failed; retrying in a minute`);
      }
    }
  }

  private async runPurge(purge: Purge, now: number): Promise<number> {
    let purged = 0;
    for (let batch = 0; batch < PURGE_BATCHES_PER_PASS && !this.stopping; batch++) {
      const deleted = await purge(now, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return purged;
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
