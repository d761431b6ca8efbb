/**
 * Durable timers `{id, kind, dueAt, payload}` claimed with a lease by the timer worker.
 * Contract: test/contract/timer-store.contract.ts.
 */
export interface Timer {
  id: string;
  kind: string;
  /** ISO-8601; compared against the domain Clock. */
  dueAt: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export type NewTimer = Omit<Timer, 'attempts'>;

export type TimerStatus = 'scheduled' | 'done' | 'parked';

export interface TimerCount {
  kind: string;
  status: TimerStatus;
  count: number;
}

export interface TimerStore {
  /** Idempotent on id: scheduling an existing timer changes nothing. */
  scheduleTimer(timer: NewTimer): Promise<void>;
  /** Claims up to `limit` scheduled timers due at `now` whose lease is free or expired. */
  claimDueTimers(now: string, owner: string, nowMs: number, leaseMs: number, limit: number): Promise<Timer[]>;
  /** Marks the timer done, recording when (real milliseconds) for the purge. */
  completeTimer(id: string, owner: string, doneAtMs: number): Promise<void>;
  /** Releases the claim and moves the timer to a later due time after a failed attempt. */
  retryTimer(id: string, owner: string, dueAt: string, error: string): Promise<void>;
  parkTimer(id: string, owner: string, error: string): Promise<void>;
  timerStatus(id: string): Promise<{ status: TimerStatus; attempts: number; lastError: string | null } | null>;
  /** Earliest due time of a scheduled timer, or null. */
  nextTimerDueAt(): Promise<string | null>;
  /**
   * Deletes up to `limit` timers that were completed before `doneBeforeMs` (real milliseconds); returns
   * how many. Timers completed before completion times were recorded are kept.
   */
  purgeDoneTimers(doneBeforeMs: number, limit: number): Promise<number>;
  /** How many timers are scheduled or parked, per kind and status (queue depths for /metrics); done ones are not counted. */
  timerCounts(): Promise<TimerCount[]>;
}

export const TIMER_STORE = Symbol('TIMER_STORE');
