import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { adoptResults, benchStarted, recordedResults, recordResult, SMOKE } from './bench-mode';
import { loadAverage, printTable } from './http-load';

/**
 * Benchmarks by name; run one with `npm run bench -- <name>`, or every one with `npm run bench -- all`
 * (one table of every target at the end). Each entry loads its module lazily, so a bench only pulls in
 * its own dependencies. `npm run bench` builds dist/ first only when it is stale (scripts/build-if-stale.js).
 */
const BENCHES: Record<string, () => Promise<void>> = {
  'event-store': async () => (await import('./event-store.bench.js')).eventStoreBench(),
  webhooks: async () => (await import('./webhooks.bench.js')).webhooksBench(),
  checkout: async () => (await import('./checkout.bench.js')).checkoutBench(),
  split: async () => (await import('./split.bench.js')).splitBench(),
  settlement: async () => (await import('./settlement.bench.js')).settlementBench(),
  mixed: async () => (await import('./mixed.bench.js')).mixedBench(),
  rebuild: async () => (await import('./rebuild.bench.js')).rebuildBench(),
  'event-ids': async () => (await import('./event-ids.bench.js')).eventIdsBench(),
  books: async () => (await import('./books.bench.js')).booksBench(),
};

/**
 * Each bench runs in a process of its own, started with this one's node flags: a bench's figures (its peak
 * RSS above all, which is the process's lifetime peak) must not carry what an earlier bench left in the heap.
 */
async function runAll(): Promise<void> {
  console.log(`every bench${SMOKE ? ' (smoke run: tiny sizes, no target checked)' : ''}; load average ${loadAverage()}`);
  const dir = mkdtempSync(join(tmpdir(), 'paysplit-bench-results-'));
  try {
    for (const name of Object.keys(BENCHES)) {
      console.log('');
      const file = join(dir, `${name}.jsonl`);
      writeFileSync(file, '');
      const started = performance.now();
      const code = await runInOwnProcess(name, file);
      adoptResults(file);
      if (code !== 0) {
        // One broken bench must not hide the others' figures: it shows as failed and the run exits non-zero.
        console.error(`${name} failed: its process exited with code ${code}`);
        benchStarted(name);
        recordResult('the bench itself', 'failed', 'runs', false);
        process.exitCode = 1;
      }
      console.log(`  (${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('');
  console.log(`every target, load average ${loadAverage()}:`);
  printTable(
    ['bench', 'figure', 'value', 'target', 'result'],
    recordedResults().map((r) => [r.bench, r.what, r.value, r.target, r.result]),
  );
}

/** Runs one bench as `run-bench.js <name>` in a child process; resolves with its exit code (1 when a signal ended it). */
function runInOwnProcess(name: string, resultsFile: string): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, name], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BENCH_RESULTS_FILE: resultsFile },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (name === 'all') return runAll();
  const bench = name !== undefined && Object.hasOwn(BENCHES, name) ? BENCHES[name] : undefined;
  if (!bench) {
    console.error(`${name === undefined ? 'No benchmark given' : `Unknown benchmark "${name}"`}. Known benchmarks (or all):`);
    for (const known of Object.keys(BENCHES)) console.error(`  ${known}`);
    process.exitCode = 1;
    return;
  }
  benchStarted(name);
  await bench();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
