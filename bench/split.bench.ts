import { bareRoute, CONNECTIONS, fmtFigures, loadAverage, roundsAgainstBare, startService, verdict } from './http-load';
import { ROSTER_ROWS, splitWorld } from './split-world';
import { sized, SMOKE } from './bench-mode';

/**
 * Create-split over HTTP vs a bare Fastify route, in the same run, in the shape of the checkout bench
 * (bench/checkout.bench.ts): 32 keep-alive connections POST for a fixed time to each, alternating rounds,
 * medians reported. The service is the real one on a fresh SQLite DATA_DIR: API key auth, validation,
 * roster resolution (ROSTER_ROWS sub-vendors), decide, append with `no_stream`, and the read-your-writes
 * wait for the `splits` read model the 201 answers from (applied by the worker). Bodies are the same on
 * both sides (a fresh clientIdempotencyKey each, so every request creates a Split: PENDING_APPROVAL).
 * Targets (issue 13, on the api + worker shape): ratio >= 0.2, p99 < 25 ms. BENCH_SECONDS overrides the
 * 10 s per measured run; BENCH_SKIP_ALL=1 measures the api + worker shape only.
 */
const SECONDS = sized(Math.max(2, Number(process.env.BENCH_SECONDS) || 10), 1);
const WARM_UP_SECONDS = sized(3, 0.5);
const ROUNDS = sized(3, 1);
const RATIO_TARGET = 0.2;
const P99_TARGET_MS = 25;

export async function splitBench(): Promise<void> {
  console.log(
    `split bench: create-split (${ROSTER_ROWS} sub-vendor rows), ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds; load average ${loadAverage()}`,
  );
  console.log(`  targets (api + worker): ratio to the bare route >= ${RATIO_TARGET}, p99 < ${P99_TARGET_MS} ms`);
  let body: () => string = () => '{}';
  const bare = await bareRoute(() => body());
  const service = await startService('api', 'split', 'create split', async (app) => {
    const world = await splitWorld(app, { autoAccept: false, earlyPayout: false });
    body = world.body;
    return { path: '/api/commerce/integration/splits', headers: { authorization: `Bearer ${world.apiKey}` }, body: world.body };
  });
  let result: Awaited<ReturnType<typeof roundsAgainstBare>>;
  try {
    result = await roundsAgainstBare(bare, service, { rounds: ROUNDS, seconds: SECONDS, warmUpSeconds: WARM_UP_SECONDS });
  } finally {
    await bare.close();
    await service.close();
  }
  console.log(`  median ${bare.label}: ${fmtFigures(result.baseline)}`);
  console.log(`  median ${service.label}: ${fmtFigures(result.figures)}`);
  verdict("ratio, api + worker (median of the rounds' ratios)", result.ratio, RATIO_TARGET, 'atLeast');
  verdict('p99, api + worker', result.figures.p99, P99_TARGET_MS, 'below', ' ms', 2);
  console.log(`  load average after: ${loadAverage()}`);

  if (process.env.BENCH_SKIP_ALL || SMOKE) return;
  const single = await startService('all', 'split', 'create split', async (app) => {
    const world = await splitWorld(app, { autoAccept: false, earlyPayout: false });
    return { path: '/api/commerce/integration/splits', headers: { authorization: `Bearer ${world.apiKey}` }, body: world.body };
  });
  try {
    await single.run(WARM_UP_SECONDS);
    const cpuBefore = single.cpuMs().thisProcess;
    const figures = await single.run(SECONDS);
    const caughtUp = await single.catchUpMs();
    const cpuPerRequest = (single.cpuMs().thisProcess - cpuBefore) / figures.requests;
    console.log(`  ${single.label} (one round): ${fmtFigures(figures)}; caught up ${caughtUp.toFixed(0)} ms after the load; CPU per request ${cpuPerRequest.toFixed(3)} ms`);
    console.log(`  ratio, all in one: ${(figures.perSecond / result.baseline.perSecond).toFixed(3)}; p99 ${figures.p99.toFixed(2)} ms`);
  } finally {
    await single.close();
  }
}
