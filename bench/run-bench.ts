import { performance } from 'node:perf_hooks';
import { benchStarted, recordedResults, recordResult, SMOKE } from './bench-mode';
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

async function runAll(): Promise<void> {
  console.log(`every bench${SMOKE ? ' (smoke run: tiny sizes, no target checked)' : ''}; load average ${loadAverage()}`);
  for (const [name, bench] of Object.entries(BENCHES)) {
    console.log('');
    benchStarted(name);
    const started = performance.now();
    try {
      await bench();
    } catch (error) {
      // One broken bench must not hide the others' figures: it shows as FAILED and the run exits non-zero.
      console.error(`${name} failed:`, error);
      recordResult('the bench itself', 'failed', 'runs', false);
      process.exitCode = 1;
    }
    console.log(`  (${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  console.log('');
  console.log(`every target, load average ${loadAverage()}:`);
  printTable(
    ['bench', 'figure', 'value', 'target', 'result'],
    recordedResults().map((r) => [r.bench, r.what, r.value, r.target, r.result]),
  );
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
