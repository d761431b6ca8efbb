import { Clock } from '../clock/clock';
import { NewTimer, Timer, TimerStore } from '../read-store/timer-store.port';
import { AppLogger } from '../logging/app-logger';
import { WakeableLoop } from '../background/wakeable-loop';

const KEEP_DONE_TIMERS_MS = 7 * 86_400_000;
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 2_000;
/** At most this many batches a pass (100,000 rows a minute), yielding to the event loop between them. */
const PURGE_BATCHES_PER_PASS = 50;

/** Fires one kind of timer. Throwing means "try again later"; handlers must be idempotent. */
export type TimerHandler = (timer: Timer) => Promise<void>;

/** Deletes up to `limit` rows that are no longer needed at real time `realNowMs`; returns how many. */
export type Purge = (realNowMs: number, limit: number) => Promise<number>;

/** How one timer kind shares the worker: its own pool. */
export interface TimerKindOptions {
  /** At most this many timers of the kind run at once (default: `perKindConcurrency` of the worker). */
  concurrency?: number;
}

export interface TimerWorkerOptions {
  owner: string;
  pollIntervalMs: number;
  leaseMs: number;
  batchSize: number;
  /** Timers run at once by the worker, all kinds together. */
  concurrency: number;
  /** Default pool per timer kind, so one kind cannot take every slot (default: `concurrency`). */
  perKindConcurrency?: number;
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
  private readonly kindOptions = new Map<string, TimerKindOptions>();
  /** What the background loop runs now, per pool. */
  private readonly running = { total: 0, byKind: new Map<string, number>() };
  /** Claimed (leased) but waiting for a slot in their kind's pool. */
  private deferred: { timer: Timer; claimedAtMs: number }[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly purges = new Map<string, Purge>([
    // Done timers are kept for a week after they completed, in real time: scheduling is idempotent on
    // id, so a replayed schedule must still find them, and the sandbox clock must not shorten that.
    ['done timers', (realNowMs, limit) => this.store.purgeDoneTimers(realNowMs - KEEP_DONE_TIMERS_MS, limit)],
  ]);
  private readonly loop: WakeableLoop;

  constructor(
    private readonly store: TimerStore,
    private readonly clock: Clock,
    private readonly logger: AppLogger,
    private readonly options: TimerWorkerOptions,
  ) {
    this.loop = new WakeableLoop(
      async () => {
        await this.pump();
        await this.purgeIfDue();
      },
      { pollIntervalMs: options.pollIntervalMs, onPassFailed: (error) => this.logger.error({ err: error }, 'timer worker pass failed; retrying') },
    );
  }

  register(kind: string, handler: TimerHandler, options: TimerKindOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`Timer kind ${kind} already has a handler`);
    this.handlers.set(kind, handler);
    this.kindOptions.set(kind, options);
  }

  /** Adds a clean-up that runs with the done-timer purge: once a minute, in batches, where timers fire. */
  addPurge(what: string, purge: Purge): void {
    if (this.purges.has(what)) throw new Error(`A purge of ${what} is already registered`);
    this.purges.set(what, purge);
  }

  async schedule(timer: NewTimer): Promise<void> {
    await this.store.scheduleTimer(timer);
    // Only a timer already due needs the worker now; a later one is found by the regular poll.
    if (timer.dueAt <= this.clock.now().toISOString()) this.poke();
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.inFlight);
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

  /**
   * The background loop's scheduling (issue 15): it claims continuously, as slots free up, instead of
   * waiting for a whole batch; a timer whose kind's pool is full waits in `deferred` (still leased)
   * while the others run. So one slow kind holds at most its pool's slots, and the other kinds are
   * not queued behind it. A
   * deferred timer whose lease is about to run out is dropped unrun (another pass claims it again once
   * the lease expired), so no timer ever runs without its lease.
   */
  private async pump(): Promise<void> {
    const nowMs = this.options.realNowMs();
    this.deferred = this.deferred.filter(({ timer, claimedAtMs }) => {
      if (claimedAtMs + this.options.leaseMs / 2 <= nowMs) return false;
      if (!this.hasSlot(timer)) return true;
      this.startInBackground(timer);
      return false;
    });
    const room = Math.min(this.options.batchSize, this.options.concurrency - this.running.total, this.options.batchSize * 4 - this.deferred.length);
    if (room <= 0) return;
    const due = await this.store.claimDueTimers(this.clock.now().toISOString(), this.options.owner, nowMs, this.options.leaseMs, room);
    for (const timer of due) {
      if (this.hasSlot(timer)) this.startInBackground(timer);
      else this.deferred.push({ timer, claimedAtMs: nowMs });
    }
    // A full claim means more may be due: go round again at once instead of sleeping.
    if (due.length === room && this.running.total < this.options.concurrency) this.poke();
  }

  private hasSlot(timer: Timer): boolean {
    if (this.running.total >= this.options.concurrency) return false;
    const perKind = this.kindOptions.get(timer.kind)?.concurrency ?? this.options.perKindConcurrency ?? this.options.concurrency;
    return (this.running.byKind.get(timer.kind) ?? 0) < perKind;
  }

  private startInBackground(timer: Timer): void {
    const add = (map: Map<string, number>, key: string, by: number) => {
      const next = (map.get(key) ?? 0) + by;
      if (next === 0) map.delete(key);
      else map.set(key, next);
    };
    this.running.total++;
    add(this.running.byKind, timer.kind, 1);
    const run: Promise<void> = this.fire(timer)
      .catch((error: unknown) => this.logger.error({ err: error, timer: timer.id }, 'timer bookkeeping failed; the lease will expire and it runs again'))
      .finally(() => {
        this.running.total--;
        add(this.running.byKind, timer.kind, -1);
        this.inFlight.delete(run);
        // A freed slot may let a deferred timer or a newly due one start.
        this.poke();
      });
    this.inFlight.add(run);
  }

  private lastPurgeMs = -Infinity;
  /** True while stop() waits for the loop: a purge under way ends after its current batch. */
  private get stopping(): boolean {
    return this.loop.stopping;
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

  /** Wakes the loop now, or makes its next sleep return at once if it is busy. */
  private poke(): void {
    this.loop.poke();
  }
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
