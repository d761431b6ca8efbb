import { SystemClock } from '../../src/platform/clock/clock';
import { createLogger } from '../../src/platform/logging/app-logger';
import { TimerStore } from '../../src/platform/read-store/timer-store.port';
import { TimerWorker } from '../../src/platform/timers/timer-worker';

/** A timer worker whose real time stands still at `realNowMs` (timers themselves use the system clock). */
export function timerWorkerAt(store: TimerStore, realNowMs: number): TimerWorker {
  return new TimerWorker(store, new SystemClock(), createLogger('silent'), {
    owner: 'test',
    pollIntervalMs: 10_000,
    leaseMs: 30_000,
    batchSize: 10,
    concurrency: 1,
    retryDelayMs: () => null,
    realNowMs: () => realNowMs,
  });
}
