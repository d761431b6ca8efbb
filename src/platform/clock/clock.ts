/** All time in Paysplit comes from a Clock; domain code receives `now` inside its commands. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');
/** Real time even in the sandbox: for what must not age when the sandbox clock jumps (leases, sessions). */
export const REAL_CLOCK = Symbol('REAL_CLOCK');

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/**
 * The sandbox clock runs with real time plus an offset that only moves forward when a caller advances it,
 * so a month of renewals or a week of webhook retries can run in a test in milliseconds.
 */
export class SandboxClock implements Clock {
  constructor(
    private offsetMs = 0,
    private readonly realTime: Clock = new SystemClock(),
  ) {}

  now(): Date {
    return new Date(this.realTime.now().getTime() + this.offsetMs);
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** Moves the clock to `target` if that is in the future; never moves it back. */
  advanceTo(target: Date): void {
    const delta = target.getTime() - this.now().getTime();
    if (delta > 0) this.offsetMs += delta;
  }
}

let formattedMs = Number.NaN;
let formatted = '';

/**
 * `date.toISOString()`, formatted once per millisecond (the same millisecond always gives the same
 * text): a burst stamps thousands of rows within a few milliseconds, and formatting was ~2 us each
 * (webhook deliveries, issue 31). An invalid date throws as toISOString does.
 */
export function isoString(date: Date): string {
  const ms = date.getTime();
  if (ms !== formattedMs) {
    formatted = date.toISOString();
    formattedMs = ms;
  }
  return formatted;
}
