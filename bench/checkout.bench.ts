import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { startApp } from '../src/bootstrap';
import { loadConfig } from '../src/platform/config/app-config';
import { createLogger } from '../src/platform/logging/app-logger';

/**
 * Create-checkout over HTTP vs a bare Fastify route, in the same run and process: 32 connections
 * (undici Pool, keep-alive) send POSTs for a fixed time to each. The checkout side is the real service
 * (startApp on a fresh SQLite DATA_DIR, workers on): API key auth, validation, decide, append with
 * no_stream, the expiry timer, read-your-writes. The bare route parses the same JSON body and answers 201.
 * Targets: ratio >= 0.25, checkout p99 < 20 ms. BENCH_SECONDS overrides the 10 s per side.
 */
const CONNECTIONS = 32;
const SECONDS = Math.max(2, Number(process.env.BENCH_SECONDS) || 10);

interface Figures {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(origin: string, path: string, headers: Record<string, string>, body: () => string): Promise<Figures> {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        const response = await pool.request({ origin, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body() });
        await response.body.text();
        if (response.statusCode !== 201) errors++;
        latencies.push(performance.now() - start);
      }
    }),
  );
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, perSecond: latencies.length / SECONDS, p50: at(0.5), p99: at(0.99), errors };
}

export async function checkoutBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paysplit-bench-checkout-'));
  const config = loadConfig({ SANDBOX: 'true', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await startApp(config, createLogger('silent'));
  const bare = Fastify();
  bare.post('/bare', async (request, reply) => reply.status(201).send({ data: { ok: true, echo: (request.body as { amountMinorUnits?: string }).amountMinorUnits } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareAddress = bare.server.address();
  const bareOrigin = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}`;
  try {
    const json = async (method: string, path: string, body: unknown, token?: string) => {
      const response = await fetch(`${app.url}${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      return ((await response.json()) as { data: Record<string, string> }).data;
    };
    const { sessionToken } = await json('POST', '/api/auth/signup', { companyName: 'Bench Shop', email: 'bench@example.test', password: 'correct horse battery' });
    const { key } = await json('POST', '/api/commerce/api-keys', { name: 'bench', scopes: ['checkout:write'] }, sessionToken);
    let n = 0;
    const checkoutBody = () =>
      JSON.stringify({ amountMinorUnits: '1999', currency: 'USD', provider: 'CARD_PROCESSOR', returnUrl: 'https://shop.example/thanks', idempotencyKey: `bench-${++n}` });

    // A short warm-up of the service, then the measured runs.
    await load(app.url, '/api/commerce/integration/checkout', { authorization: `Bearer ${key}` }, checkoutBody).catch(() => undefined);
    const baseline = await load(bareOrigin, '/bare', {}, checkoutBody);
    const checkout = await load(app.url, '/api/commerce/integration/checkout', { authorization: `Bearer ${key}` }, checkoutBody);
    const ratio = checkout.perSecond / baseline.perSecond;
    const fmt = (f: Figures) => `${f.perSecond.toFixed(0)} req/s (${f.requests} requests, p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, non-201: ${f.errors})`;
    console.log(`checkout bench: ${CONNECTIONS} connections, ${SECONDS} s per side`);
    console.log(`  bare Fastify route     ${fmt(baseline)}`);
    console.log(`  POST create checkout   ${fmt(checkout)}`);
    console.log(`  ratio ${ratio.toFixed(3)} (target >= 0.25): ${ratio >= 0.25 ? 'PASS' : 'MISS'}`);
    console.log(`  checkout p99 ${checkout.p99.toFixed(2)} ms (target < 20 ms): ${checkout.p99 < 20 ? 'PASS' : 'MISS'}`);
  } finally {
    await bare.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
