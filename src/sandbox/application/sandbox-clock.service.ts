import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, SandboxClock } from '../../platform/clock/clock';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { AppLogger } from '../../platform/logging/app-logger';
import { SANDBOX_CLOCK_DOC } from '../../platform/platform';
import { LOGGER, SANDBOX_CLOCK } from '../../platform/platform.tokens';
import { ProjectionEngine, ProjectionLagError } from '../../platform/projections/projection-engine';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { TIMER_STORE, TimerStore } from '../../platform/read-store/timer-store.port';
import { TimerWorker } from '../../platform/timers/timer-worker';
import { DueWorkRegistry } from '../../platform/due-work-registry';

const SETTLE_TIMEOUT_MS = 30_000;
const IN_FLIGHT_POLL_MS = 5;

/**
 * Moves the sandbox clock forward and returns only when everything due by the new time has run.
 * It steps from one due timer (or queued item, such as a webhook delivery) to the next, so work scheduled by a timer (a retry, the next renewal)
 * runs at its own due time, with projections and process managers caught up at every step.
 */
@Injectable()
export class SandboxClockService {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SANDBOX_CLOCK) private readonly sandboxClock: SandboxClock | null,
    private readonly engine: ProjectionEngine,
    private readonly timers: TimerWorker,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(TIMER_STORE) private readonly timerStore: TimerStore,
    @Inject(OPERATIONAL_STORE) private readonly operational: OperationalStore,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly dueWork: DueWorkRegistry,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  /** How far the sandbox clock is ahead of real time, in whole seconds. */
  offsetSeconds(): number {
    return Math.round((this.sandboxClock?.offset ?? 0) / 1000);
  }

  async advance(seconds: number): Promise<Date> {
    // In sandbox mode the injected clock is the controllable one (the platform builds CLOCK from it).
    const clock = this.sandboxClock;
    if (!clock) throw new Error('sandbox clock is not enabled');
    const target = new Date(clock.now().getTime() + seconds * 1000);
    await this.settle();
    for (;;) {
      const next = await this.nextDueAt();
      if (next === null || next > target.toISOString()) break;
      await this.moveTo(clock, new Date(next));
      await this.settle();
    }
    await this.moveTo(clock, target);
    await this.settle();
    return clock.now();
  }

  /**
   * Moves the clock and stores its offset before any work due at the new time runs: a process killed
   * while that work runs restarts at the step it reached (its timers are still due there and fire
   * again), never back at the time before the advance with some of the later work already done.
   */
  private async moveTo(clock: SandboxClock, at: Date): Promise<void> {
    clock.advanceTo(at);
    await this.operational.putOperational(SANDBOX_CLOCK_DOC.collection, { id: SANDBOX_CLOCK_DOC.id, offsetMs: clock.offset });
  }

  /**
   * Runs due timers and waits for subscribers until neither has anything left to do. A timer that is
   * due but was not fired here is being fired by the live timer worker (it holds the claim): wait for it
   * on a real timeout, which also lets the event loop run that timer's I/O. (Re-checking at once, as
   * this loop once did, spun on promises alone and starved that very I/O until the claim expired.)
   */
  private async settle(): Promise<void> {
    try {
      await this.settleOnce();
    } catch (error) {
      if (!(error instanceof ProjectionLagError)) throw error;
      throw new ProjectionLagError(
        error.message,
        `Projections or process managers did not catch up within ${SETTLE_TIMEOUT_MS / 1000} s (see /health); the sandbox clock stands at ${this.clock.now().toISOString()}`,
      );
    }
  }

  /** The earliest due timer or queued item (a webhook delivery), or null. */
  private async nextDueAt(): Promise<string | null> {
    const [timer, queued] = await Promise.all([this.timerStore.nextTimerDueAt(), this.dueWork.nextDueAt()]);
    if (timer === null || queued === null) return timer ?? queued;
    return timer < queued ? timer : queued;
  }

  private async settleOnce(): Promise<void> {
    const { engine, timers, events } = this;
    for (let waited = 0; ;) {
      await engine.waitForHead(SETTLE_TIMEOUT_MS);
      const fired = (await timers.fireDue()) + (await this.dueWork.runDue());
      const head = await events.headPosition();
      await engine.waitForHead(SETTLE_TIMEOUT_MS);
      if (fired > 0 || head !== (await events.headPosition())) continue;
      const due = await this.nextDueAt();
      if (due === null || due > this.clock.now().toISOString()) return;
      if (waited >= SETTLE_TIMEOUT_MS) {
        this.logger.warn({ dueAt: due }, 'sandbox clock: a due timer is still claimed elsewhere; advancing without it');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
      waited += IN_FLIGHT_POLL_MS;
    }
  }
}
