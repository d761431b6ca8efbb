/**
 * What every bench shares about how it is run: the smoke mode and the results `npm run bench -- all`
 * prints as one table.
 *
 * BENCH_SMOKE=1 runs each bench at a tiny size (about a second of load, one round) and checks no
 * target: `npm test` runs every bench that way (test/bench/bench-smoke.spec.ts), so a bench that no longer
 * runs is caught the day it breaks, not at the next measurement.
 */
import { appendFileSync, readFileSync } from 'node:fs';

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
/**
 * Set by `npm run bench -- all` for the process it runs one bench in: every result is also appended there,
 * one JSON line each, for the parent's table.
 */
const RESULTS_FILE = process.env.BENCH_RESULTS_FILE;

/** Names the bench whose results are recorded from now on. */
export function benchStarted(name: string): void {
  current = name;
}

/** One figure of the current bench, with its target (pass null: a figure without a target). */
export function recordResult(what: string, value: string, target: string, pass: boolean | null): void {
  const result = pass === null ? 'n/a' : SMOKE ? 'not checked (smoke)' : pass ? 'PASS' : 'MISS';
  const recorded = { bench: current, what, value, target, result };
  results.push(recorded);
  if (RESULTS_FILE !== undefined) appendFileSync(RESULTS_FILE, `${JSON.stringify(recorded)}\n`);
}

/** The results a bench process appended to `file` (see BENCH_RESULTS_FILE), added to this process's own. */
export function adoptResults(file: string): void {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  for (const line of lines) results.push(JSON.parse(line) as BenchResult);
}

export function recordedResults(): readonly BenchResult[] {
  return results;
}
