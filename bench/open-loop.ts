import { performance } from 'node:perf_hooks';

/**
 * Starts one request every 1/rate s for `seconds`, whatever the earlier ones are doing, and answers each
 * one's latency. A request that went out late is timed from its scheduled time, so a service that falls
 * behind shows it (no coordinated omission); one that went out early (the loop sends without a timer when
 * the next slot is at most a millisecond away) is timed from its send, never with a negative latency.
 * `send` gets the time its latency counts from.
 */
export async function openLoop(rate: number, seconds: number, send: (startedAt: number) => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.floor(rate * seconds);
  for (let i = 0; i < total; i++) {
    const scheduledAt = started + (i * 1000) / rate;
    const wait = scheduledAt - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const startedAt = Math.min(scheduledAt, performance.now());
    inFlight.push(send(startedAt).then(() => void latencies.push(performance.now() - startedAt)));
  }
  await Promise.all(inFlight);
  return latencies;
}
