import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { RunningApp, startApp } from '../src/bootstrap';
import { loadConfig } from '../src/platform/config/app-config';
import { createLogger } from '../src/platform/logging/app-logger';
import { recordResult } from './bench-mode';
import { SERVICE_NODE_FLAGS } from './service-node-flags';

/**
 * What the HTTP benches share (checkout, split, settlement): a keep-alive POST load at a fixed number of
 * connections, the bare Fastify route they compare against, a ROLE=worker child process, and the
 * PASS/MISS line every bench prints for each target.
 */

export const CONNECTIONS = 32;
const MAIN = join(__dirname, '../src/main.js');
/** The worker's niceness: the API process, at 0, gets a core whenever it is busy. */
export const WORKER_NICE = 19;

export interface Figures {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** The slowest request (a stall that p99 hides shows here). */
  max: number;
  errors: number;
  /** The unexpected answers by status, each with the first body seen (so a non-2xx says what it was). */
  unexpected?: Map<number, { count: number; body: string }>;
}

/**
 * POSTs for `seconds` on CONNECTIONS keep-alive connections (opened before the clock starts); a response
 * other than `expectStatus` counts as an error. `onResponse` sees every parsed response body.
 */
export async function load(
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: () => string,
  seconds: number,
  options: { expectStatus?: number; onResponse?: (body: string) => void; connections?: number } = {},
): Promise<Figures> {
  const connections = options.connections ?? CONNECTIONS;
  const expected = options.expectStatus ?? 201;
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const send = async () => {
    const response = await pool.request({ origin, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body() });
    const text = await response.body.text();
    if (response.statusCode === expected) options.onResponse?.(text);
    else noteUnexpected(response.statusCode, text);
    return response.statusCode;
  };
  const unexpected = new Map<number, { count: number; body: string }>();
  const noteUnexpected = (status: number, body: string) => {
    const seen = unexpected.get(status);
    if (seen) seen.count += 1;
    else unexpected.set(status, { count: 1, body: body.slice(0, 300) });
  };
  // Open the connections first (one unmeasured request each): the figures are keep-alive traffic, as
  // from a merchant's server, not TCP handshakes queued behind the first requests.
  await Promise.all(Array.from({ length: connections }, send));
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        if ((await send()) !== expected) errors++;
        latencies.push(performance.now() - start);
      }
    }),
  );
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? NaN, errors, unexpected };
}

export interface LoadTarget {
  label: string;
  run(seconds: number): Promise<Figures>;
  close(): Promise<void>;
}

/** The baseline: a bare Fastify route in this process that parses the same JSON body and answers 201. */
export async function bareRoute(body: () => string): Promise<LoadTarget & { origin: string }> {
  const bare = Fastify({ bodyLimit: 1024 * 1024 });
  bare.post('/bare', async (request, reply) => reply.status(201).send({ data: { ok: true, keys: Object.keys(request.body as object).length } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { label: 'bare Fastify route', origin, run: (seconds) => load(origin, '/bare', {}, body, seconds), close: () => bare.close() };
}

/**
 * A ROLE=worker process on the same data directory, at a lower CPU priority (docs/operations.md: on a
 * host shared with API processes the worker yields the CPU to requests and catches up after), with the
 * service's node flags; resolves once it is listening.
 */
export async function startWorker(dataDir: string, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  // BENCH_WORKER_NODE_ARGS: node flags for the worker, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const worker = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, MAIN], {
    env: { ...process.env, ROLE: 'worker', SANDBOX: 'true', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...extraEnv },
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

/** BENCH_SPLIT_WORKERS=1: the api beside two workers, one for the read models and one for the process managers (WORKER_RUNS). */
export const SPLIT_WORKERS = process.env.BENCH_SPLIT_WORKERS === '1';

/** The worker process, or with BENCH_SPLIT_WORKERS=1 the two (read models, then process managers). */
export async function startWorkers(dataDir: string, env: Record<string, string> = {}): Promise<ChildProcess[]> {
  if (!SPLIT_WORKERS) return [await startWorker(dataDir, env)];
  const readModels = await startWorker(dataDir, { ...env, WORKER_RUNS: 'read-models' });
  return [readModels, await startWorker(dataDir, { ...env, WORKER_RUNS: 'process-managers' })];
}

export async function stopWorker(worker: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  await exited;
}

/** A JSON call to the service that must answer 2xx; answers its `data`. */
export async function call(app: RunningApp, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: unknown }).data;
}

export const fmtFigures = (f: Figures) =>
  `${f.perSecond.toFixed(0)} req/s (${f.requests} requests, p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, max ${f.max.toFixed(0)} ms, non-2xx: ${f.errors}${fmtUnexpected(f)})`;

const fmtUnexpected = ({ unexpected }: Figures) => [...(unexpected ?? [])].map(([status, { count, body }]) => `; ${count} x ${status}, first: ${body}`).join('');

/** Each figure's median over the rounds, taken separately (throughput of one round, p99 of maybe another). */
export function medianFigures(rounds: Figures[]): Figures {
  const mid = (key: 'requests' | 'perSecond' | 'p50' | 'p99' | 'max' | 'errors') => [...rounds].map((r) => r[key]).sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
  return { requests: mid('requests'), perSecond: mid('perSecond'), p50: mid('p50'), p99: mid('p99'), max: mid('max'), errors: mid('errors') };
}

/** The middle value; of an even count, the mean of the two middle ones (the upper one alone flattered an `atLeast` target). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * One target line: `label: value (target >= 0.25): PASS`. `atLeast` says which side of the target passes.
 * Answers whether it passed.
 */
export function verdict(label: string, value: number, target: number, kind: 'atLeast' | 'below', unit = '', digits = 3): boolean {
  const pass = kind === 'atLeast' ? value >= target : value < target;
  const shown = `${value.toFixed(digits)}${unit}`;
  const limit = `${kind === 'atLeast' ? '>=' : '<'} ${target}${unit}`;
  console.log(`  ${label}: ${shown} (target ${limit}): ${pass ? 'PASS' : `MISS (${missBy(value, target, kind)})`}`);
  recordResult(label, shown, limit, pass);
  return pass;
}

function missBy(value: number, target: number, kind: 'atLeast' | 'below'): string {
  const share = kind === 'atLeast' ? value / target : target / value;
  return `${(share * 100).toFixed(0)}% of the target`;
}

/** The real service under load, with how long its subscribers took to catch up after a burst. */
export interface ServiceUnderLoad extends LoadTarget {
  app: RunningApp;
  dataDir: string;
  catchUpMs(): Promise<number>;
  /** CPU time used so far (ms): this process (the service in it and the load generator) and the worker. */
  cpuMs(): { thisProcess: number; worker: number | null };
}

/** What to POST to a started service: its route, credentials and a body per request. */
export interface Workload {
  path: string;
  headers: Record<string, string>;
  body: () => string;
}

/**
 * The service in the given ROLE on a fresh data directory; for `api`, beside a ROLE=worker process at
 * nice WORKER_NICE (the production shape of DESIGN section 1).
 */
export async function startService(
  role: 'api' | 'all',
  name: string,
  label: string,
  prepare: (app: RunningApp) => Promise<Workload>,
  env: Record<string, string> = {},
): Promise<ServiceUnderLoad> {
  const dataDir = mkdtempSync(join(tmpdir(), `paysplit-bench-${name}-${role}-`));
  const workers = role === 'api' ? await startWorkers(dataDir, env) : [];
  // BENCH_LOG_LEVEL (e.g. "error"): the in-process service's log level, silent by default so logs do not load the run.
  const logLevel = process.env.BENCH_LOG_LEVEL ?? 'silent';
  const app = await startApp(loadConfig({ SANDBOX: 'true', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: logLevel, ROLE: role, ...env }), createLogger(logLevel));
  const workload = await prepare(app);
  const shape = SPLIT_WORKERS ? `two ROLE=worker (WORKER_RUNS=read-models, process-managers; nice ${WORKER_NICE})` : `ROLE=worker (nice ${WORKER_NICE})`;
  return {
    app,
    dataDir,
    label: role === 'api' ? `${label}, ROLE=api + ${shape}` : `${label}, ROLE=all (one thread)`,
    run: (seconds) => load(app.url, workload.path, workload.headers, workload.body, seconds),
    // How far behind the load left the other subscribers (expiry timers, webhooks, ledger...).
    async catchUpMs() {
      const stopped = performance.now();
      await app.platform.engine.waitForHead(120_000);
      return performance.now() - stopped;
    },
    cpuMs: () => ({ thisProcess: processCpuMs(), worker: workers.length ? workers.reduce((sum, worker) => sum + childCpuMs(worker.pid!), 0) : null }),
    async close() {
      await app.close();
      for (const worker of workers) await stopWorker(worker);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The bare route and the service in alternating rounds (the worker catching up between them, so it does
 * not slow the baseline), after a warm-up of each; answers the medians and the median of the rounds'
 * ratios (each service round against the bare round right before it).
 */
export async function roundsAgainstBare(
  bare: LoadTarget,
  service: ServiceUnderLoad,
  options: { rounds: number; seconds: number; warmUpSeconds: number },
): Promise<{ baseline: Figures; figures: Figures; ratio: number }> {
  const bareRounds: Figures[] = [];
  const serviceRounds: Figures[] = [];
  await bare.run(options.warmUpSeconds);
  await service.run(options.warmUpSeconds);
  await service.catchUpMs();
  for (let round = 1; round <= options.rounds; round++) {
    bareRounds.push(await bare.run(options.seconds));
    const cpuBefore = service.cpuMs();
    serviceRounds.push(await service.run(options.seconds));
    const catchUp = await service.catchUpMs();
    const cpu = cpuPerRequest(cpuBefore, service.cpuMs(), serviceRounds.at(-1)!.requests);
    console.log(`  round ${round}: ${bare.label} ${fmtFigures(bareRounds.at(-1)!)}`);
    console.log(`           ${service.label} ${fmtFigures(serviceRounds.at(-1)!)}; worker caught up ${catchUp.toFixed(0)} ms after it; ${cpu}`);
  }
  const ratio = median(serviceRounds.map((round, i) => round.perSecond / bareRounds[i]!.perSecond));
  return { baseline: medianFigures(bareRounds), figures: medianFigures(serviceRounds), ratio };
}

/**
 * CPU time per request of a round and its catch-up, for comparing runs on a shared machine (req/s depends
 * on what else runs; CPU time much less): this process (service and load generator) and the worker.
 */
function cpuPerRequest(before: ReturnType<ServiceUnderLoad['cpuMs']>, after: ReturnType<ServiceUnderLoad['cpuMs']>, requests: number): string {
  const per = (ms: number) => (ms / requests).toFixed(3);
  const worker = after.worker === null ? '' : `, worker ${per(after.worker - before.worker!)} ms`;
  return `CPU per request: this process ${per(after.thisProcess - before.thisProcess)} ms${worker}`;
}

/** User + system CPU time of this process so far, in ms. */
export function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** User + system CPU time of a child process so far, in ms (Linux /proc: fields 14 and 15, in ticks of 10 ms). */
export function childCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The machine's load average, printed beside figures (the machine is shared; ratios are what count). */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
}

/** A table of figures with a header row, first column left-aligned. */
export function printTable(header: string[], rows: string[][], indent = '  '): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => indent + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
  console.log(line(header));
  console.log(indent + widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row));
}
