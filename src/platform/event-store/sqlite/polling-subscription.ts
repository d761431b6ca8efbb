import { EventEmitter } from 'node:events';
import { RecordedEvent, Subscription, SubscriptionHandler } from '../event-store.port';

interface PollingOptions {
  after: number | null;
  handler: SubscriptionHandler;
  readBatch: (after: number | null) => Promise<RecordedEvent[]>;
  pollIntervalMs: number;
  /** Emits 'append' when this process appended; other processes' appends are seen by polling. */
  wakeUp: EventEmitter;
}

/** Catch-up then live subscription over a store that can be read by position. */
export function pollingSubscription(options: PollingOptions): Subscription {
  let stopped = false;
  let wake: (() => void) | null = null;
  const onAppend = () => wake?.();
  options.wakeUp.on('append', onAppend);

  let reportFailure!: (error: Error) => void;
  const failed = new Promise<Error>((resolve) => (reportFailure = resolve));

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.pollIntervalMs);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const loop = async () => {
    let checkpoint = options.after;
    while (!stopped) {
      const batch = await options.readBatch(checkpoint);
      for (const event of batch) {
        if (stopped) return;
        await options.handler(event);
        checkpoint = event.position;
      }
      if (batch.length === 0 && !stopped) await sleep();
      // Let I/O (HTTP, timers) run between batches: a long catch-up must not starve the process.
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  const running = loop().catch((error: unknown) => {
    reportFailure(error instanceof Error ? error : new Error(String(error)));
  });

  return {
    failed,
    async stop() {
      stopped = true;
      options.wakeUp.off('append', onAppend);
      wake?.();
      await running;
    },
  };
}
