/**
 * What every bench shares about how it is run: the smoke mode and the results `npm run bench -- all`
 * prints as one table.
 *
 * BENCH_SMOKE=1 runs each bench at a tiny size (about a second of load, one round) and checks no
 * target: `npm test` runs every bench that way (test/bench/bench-smoke.spec.ts), so a bench that no longer
 * runs is caught the day it breaks, not at the next measurement.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** A bench's size: `full` normally, `smoke` in a smoke run. */
export function sized<T>(full: T, smoke: T): T {
  return SMOKE ? smoke : full;
}

export interface BenchResult {
  bench: string;
  what: string;
  value: string;
  target: string;
  result: string;
}

const results: BenchResult[] = [];
let current = '';

/** Names the bench whose results are recorded from now on. */
export function benchStarted(name: string): void {
  current = name;
}

/** One figure of the current bench, with its target (pass null: a figure without a target). */
export function recordResult(what: string, value: string, target: string, pass: boolean | null): void {
  const result = pass === null ? 'n/a' : SMOKE ? 'not checked (smoke)' : pass ? 'PASS' : 'MISS';
  results.push({ bench: current, what, value, target, result });
}

export function recordedResults(): readonly BenchResult[] {
  return results;
}
