import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM } from '../../platform/platform.tokens';
import { Platform, SANDBOX_CLOCK_DOC } from '../../platform/platform';

const SETTLE_TIMEOUT_MS = 30_000;

/**
 * Moves the sandbox clock forward and returns only when everything due by the new time has run.
 * It steps from one due timer to the next, so work scheduled by a timer (a retry, the next renewal)
 * runs at its own due time, with projections and process managers caught up at every step.
 */
@Injectable()
export class SandboxClockService {
  constructor(@Inject(PLATFORM) private readonly platform: Platform) {}

  now(): Date {
    return this.platform.clock.now();
  }

  async advance(seconds: number): Promise<Date> {
    const clock = this.platform.sandboxClock;
    if (!clock) throw new Error('sandbox clock is not enabled');
    const target = new Date(clock.now().getTime() + seconds * 1000);
    await this.settle();
    for (;;) {
      const next = await this.platform.readStore.nextTimerDueAt();
      if (next === null || next > target.toISOString()) break;
      clock.advanceTo(new Date(next));
      await this.settle();
    }
    clock.advanceTo(target);
    await this.platform.readStore.putOperational(SANDBOX_CLOCK_DOC.collection, { id: SANDBOX_CLOCK_DOC.id, offsetMs: clock.offset });
    await this.settle();
    return clock.now();
  }

  /** Runs due timers and waits for subscribers until neither has anything left to do. */
  private async settle(): Promise<void> {
    for (;;) {
      await this.platform.engine.waitForHead(SETTLE_TIMEOUT_MS);
      const fired = await this.platform.timers.fireDue();
      const head = await this.platform.events.headPosition();
      await this.platform.engine.waitForHead(SETTLE_TIMEOUT_MS);
      if (fired === 0 && head === (await this.platform.events.headPosition())) return;
    }
  }
}
