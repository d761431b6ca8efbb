import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { RunningApp, startApp } from '../src/bootstrap';
import { loadConfig } from '../src/platform/config/app-config';
import { createLogger } from '../src/platform/logging/app-logger';

/**
 * Create-checkout over HTTP vs a bare Fastify route, in the same run: 32 connections (undici Pool,
 * keep-alive, opened before the clock starts) send POSTs for a fixed time to each. The load generator
 * runs in this process, beside the server it loads, for the bare route and for the service alike.
 *
 * The service is the real one on a fresh SQLite DATA_DIR: API key auth, validation, decide, append with
 * `no_stream` (create-checkout waits for no read model; its reads do). It is measured in the two shapes DESIGN
 * section 1 names: `ROLE=api` in this process beside a `ROLE=worker` process (projections, process
 * managers, timers) on the same files, the production shape, with the worker at nice 19 as
 * docs/operations.md advises for a shared host; and `ROLE=all`, everything on one thread.
 * Targets (on the api + worker shape): ratio >= 0.25, checkout p99 < 20 ms. The bare route and the
 * api + worker service are measured in 3 alternating rounds (the worker catching up between them); the
 * ratio is the median of the rounds' ratios, the other figures are medians over the rounds
 * (this VM's speed drifts by 10% within a minute); ROLE=all gets one round. BENCH_SECONDS overrides
 * the 10 s per measured run; BENCH_SKIP_ALL=1 measures the api + worker shape only.
 */
const CONNECTIONS = 32;
const SECONDS = Math.max(2, Number(process.env.BENCH_SECONDS) || 10);
const WARM_UP_SECONDS = 3;
const ROUNDS = 3;
const MAIN = join(__dirname, '../src/main.js');
/** The worker's niceness: the API process, at 0, gets a core whenever it is busy. */
const WORKER_NICE = 19;

interface Figures {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(origin: string, path: string, headers: Record<string, string>, body: () => string, seconds = SECONDS): Promise<Figures> {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  const send = async () => {
    const response = await pool.request({ origin, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body() });
    await response.body.text();
    return response.statusCode;
  };
  // Open the 32 connections first (one unmeasured request each): the figures are keep-alive traffic, as
  // from a merchant's server, not 32 TCP handshakes queued behind the first requests.
  await Promise.all(Array.from({ length: CONNECTIONS }, send));
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        if ((await send()) !== 201) errors++;
        latencies.push(performance.now() - start);
      }
    }),
  );
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors };
}

/**
 * A ROLE=worker process on the same data directory, at a lower CPU priority (docs/operations.md: on a
 * host shared with API processes the worker yields the CPU to requests and catches up after); resolves
 * once it is listening.
 */
async function startWorker(dataDir: string): Promise<ChildProcess> {
  const worker = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ROLE: 'worker', SANDBOX: 'true', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  setPriority(worker.pid!, WORKER_NICE);
  await new Promise<void>((resolve, reject) => {
    worker.once('exit', (code) => reject(new Error(`worker exited with ${code} before listening`)));
    createInterface({ input: worker.stdout! }).on('line', (line) => {
      if (line.includes('paysplit listening')) resolve();
    });
  });
  return worker;
}

async function stopWorker(worker: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  await exited;
}

/** Signs a merchant up and issues a checkout:write key. */
async function merchantKey(app: RunningApp): Promise<string> {
  const json = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, string> }).data;
  };
  const { sessionToken } = await json('/api/auth/signup', { companyName: 'Bench Shop', email: 'bench@example.test', password: 'correct horse battery' });
  const { key } = await json('/api/commerce/api-keys', { name: 'bench', scopes: ['checkout:write'] }, sessionToken);
  return key!;
}

interface Target {
  label: string;
  run(seconds: number): Promise<Figures>;
  close(): Promise<void>;
}

let sequence = 0;
const checkoutBody = () =>
  JSON.stringify({ amountMinorUnits: '1999', currency: 'USD', provider: 'CARD_PROCESSOR', returnUrl: 'https://shop.example/thanks', idempotencyKey: `bench-${++sequence}` });

/** The baseline: a bare Fastify route in this process that parses the same JSON body and answers 201. */
async function bareRoute(): Promise<Target> {
  const bare = Fastify();
  bare.post('/bare', async (request, reply) => reply.status(201).send({ data: { ok: true, echo: (request.body as { amountMinorUnits?: string }).amountMinorUnits } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { label: 'bare Fastify route', run: (seconds) => load(origin, '/bare', {}, checkoutBody, seconds), close: () => bare.close() };
}

/** The service in the given ROLE on a fresh data directory; for `api`, beside a worker process. */
async function service(role: 'api' | 'all'): Promise<Target & { catchUpMs(): Promise<number> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `paysplit-bench-checkout-${role}-`));
  const worker = role === 'api' ? await startWorker(dataDir) : null;
  const app = await startApp(loadConfig({ SANDBOX: 'true', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ROLE: role }), createLogger('silent'));
  const headers = { authorization: `Bearer ${await merchantKey(app)}` };
  return {
    label: role === 'api' ? `create checkout, ROLE=api + ROLE=worker (nice ${WORKER_NICE})` : 'create checkout, ROLE=all (one thread)',
    run: (seconds) => load(app.url, '/api/commerce/integration/checkout', headers, checkoutBody, seconds),
    // How far behind the load left the other subscribers (expiry timers, webhooks, ledger...).
    async catchUpMs() {
      const stopped = performance.now();
      await app.platform.engine.waitForHead(120_000);
      return performance.now() - stopped;
    },
    async close() {
      await app.close();
      if (worker) await stopWorker(worker);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const fmt = (f: Figures) => `${f.perSecond.toFixed(0)} req/s (${f.requests} requests, p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, non-201: ${f.errors})`;
/** Each figure's median over the rounds, taken separately (throughput of one round, p99 of maybe another). */
function median(rounds: Figures[]): Figures {
  const mid = <K extends keyof Figures>(key: K) => [...rounds].map((r) => r[key]).sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
  return { requests: mid('requests'), perSecond: mid('perSecond'), p50: mid('p50'), p99: mid('p99'), errors: mid('errors') };
}

export async function checkoutBench(): Promise<void> {
  console.log(`checkout bench: ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds (medians reported)`);
  const bare = await bareRoute();
  const split = await service('api');
  const bareRounds: Figures[] = [];
  const splitRounds: Figures[] = [];
  try {
    await bare.run(WARM_UP_SECONDS);
    await split.run(WARM_UP_SECONDS);
    await split.catchUpMs();
    for (let round = 1; round <= ROUNDS; round++) {
      bareRounds.push(await bare.run(SECONDS));
      splitRounds.push(await split.run(SECONDS));
      // The worker finishes the round's backlog before the next bare round, so it does not slow the baseline.
      const catchUp = await split.catchUpMs();
      console.log(`  round ${round}: ${bare.label} ${fmt(bareRounds.at(-1)!)}`);
      console.log(`           ${split.label} ${fmt(splitRounds.at(-1)!)}; worker caught up ${catchUp.toFixed(0)} ms after it`);
    }
  } finally {
    await bare.close();
    await split.close();
  }
  const baseline = median(bareRounds);
  const checkout = median(splitRounds);
  // Each round's checkout figure against the bare figure measured right before it, then the median.
  const ratio = [...splitRounds.map((round, i) => round.perSecond / bareRounds[i]!.perSecond)].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
  console.log(`  median ${bare.label}: ${fmt(baseline)}`);
  console.log(`  median ${split.label}: ${fmt(checkout)}`);
  console.log(`  ratio, api + worker (median of the rounds' ratios): ${ratio.toFixed(3)} (target >= 0.25): ${ratio >= 0.25 ? 'PASS' : 'MISS'}`);
  console.log(`  p99, api + worker: ${checkout.p99.toFixed(2)} ms (target < 20 ms): ${checkout.p99 < 20 ? 'PASS' : 'MISS'}`);

  if (process.env.BENCH_SKIP_ALL) return;
  const single = await service('all');
  try {
    await single.run(WARM_UP_SECONDS);
    const figures = await single.run(SECONDS);
    console.log(`  ${single.label} (one round): ${fmt(figures)}; caught up ${(await single.catchUpMs()).toFixed(0)} ms after the load`);
    console.log(`  ratio, all in one: ${(figures.perSecond / baseline.perSecond).toFixed(3)}; p99 ${figures.p99.toFixed(2)} ms`);
  } finally {
    await single.close();
  }
}
