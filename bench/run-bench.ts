/**
 * Benchmarks by name; run one with `npm run bench -- <name>`. Each entry loads its module lazily, so
 * a bench only pulls in its own dependencies.
 */
const BENCHES: Record<string, () => Promise<void>> = {
  'event-store': async () => (await import('./event-store.bench.js')).eventStoreBench(),
  webhooks: async () => (await import('./webhooks.bench.js')).webhooksBench(),
  checkout: async () => (await import('./checkout.bench.js')).checkoutBench(),
  split: async () => (await import('./split.bench.js')).splitBench(),
  settlement: async () => (await import('./settlement.bench.js')).settlementBench(),
  rebuild: async () => (await import('./rebuild.bench.js')).rebuildBench(),
  'event-ids': async () => (await import('./event-ids.bench.js')).eventIdsBench(),
  books: async () => (await import('./books.bench.js')).booksBench(),
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const bench = name !== undefined && Object.hasOwn(BENCHES, name) ? BENCHES[name] : undefined;
  if (!bench) {
    console.error(`${name === undefined ? 'No benchmark given' : `Unknown benchmark "${name}"`}. Known benchmarks:`);
    for (const known of Object.keys(BENCHES)) console.error(`  ${known}`);
    process.exitCode = 1;
    return;
  }
  await bench();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
