import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { NestFactory } from '@nestjs/core';
import { RunningApp, startApp } from '../src/bootstrap';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/platform/config/app-config';
import { createLogger } from '../src/platform/logging/app-logger';
import { EVENTS_SCHEMA } from '../src/platform/event-store/sqlite/sqlite-event-store';
import { RecordedEvent } from '../src/platform/event-store/event-store.port';
import { PlatformRuntime } from '../src/platform/platform-runtime';
import { isProjection } from '../src/platform/projections/projection-batch';
import { recordResult, sized } from './bench-mode';
import { rebuildProjection } from '../src/platform/projections/rebuild-projection';
import { call, loadAverage, printTable, verdict } from './http-load';
import { splitWorld } from './split-world';

/**
 * Projection rebuild rate (issue 13 item 3): every projection is rebuilt (`projections:rebuild`'s code
 * path: replay the whole log into a shadow generation, then swap) over a log of BENCH_REBUILD_EVENTS
 * (1,000,000) events, beside a raw loop over the same file in the same run: better-sqlite3 reads every
 * event in position order, 1,000 at a time, and JSON.parses its data and metadata.
 *
 * The log is generated once into a cache directory outside the repository (BENCH_REBUILD_DIR, default
 * ~/.cache/paysplit-bench/rebuild-v3-<events>) and reused by later runs; only the read store is fresh each
 * run. Two runs at once must not share that directory (the second would reuse a half-written read store):
 * give each its own BENCH_REBUILD_DIR. It is realistic by construction: the real service (in-process,
 * ROLE=all) runs a template workload (auto-accepted Splits of 10 early-payout rows through settlement, paid
 * embedded checkout orders, a registered webhook endpoint, Payout Embed sessions claimed and paid to a
 * wallet or cancelled, and creators paid through Split rows who name a new wallet and withdraw part of their earnings; the
 * deliveries all of it raises are rows of the webhook delivery store, not events, since issue 13), and
 * its log is then copied, each copy with its own ids (every prefixed id, stream id and event id
 * rewritten), until the log holds the number asked. v2 logs hold no Payout Embed, withdrawal or
 * earnings events (v3 does); v1 logs hold delivery events.
 * Targets: each projection >= 0.5x the raw read, peak RSS < 1 GiB.
 */
const EVENTS = sized(Math.max(10_000, Number(process.env.BENCH_REBUILD_EVENTS) || 1_000_000), 5_000);
const RATIO_TARGET = 0.5;
const RSS_TARGET_MIB = 1024;
const TEMPLATE_SPLITS = sized(40, 3);
const TEMPLATE_ORDERS = sized(40, 3);
/** Payout Embed sessions of the template (every fifth cancelled, the others claimed and paid to a wallet). */
const TEMPLATE_SESSIONS = sized(20, 3);
/** Creators paid through a Split row each, who then withdraw part of their service balance. */
const TEMPLATE_CREATORS = sized(10, 2);
const SESSIONS = '/api/commerce/integration/payout-embed/sessions';
const RAW_BATCH = 1000;
/** BENCH_REBUILD_ONLY=splits,ledger rebuilds only those projections (to profile one); default every one. */
const ONLY = process.env.BENCH_REBUILD_ONLY?.split(',').map((name) => name.trim());

export async function rebuildBench(): Promise<void> {
  const dir = process.env.BENCH_REBUILD_DIR ?? join(homedir(), '.cache', 'paysplit-bench', `rebuild-v3-${EVENTS}`);
  console.log(`rebuild bench: ${EVENTS.toLocaleString('en-US')} events in ${dir}; load average ${loadAverage()}`);
  console.log(`  targets: each projection >= ${RATIO_TARGET}x the raw read-and-parse loop, peak RSS < ${RSS_TARGET_MIB} MiB`);
  if (!existsSync(join(dir, 'events.db'))) await generateLog(dir);
  for (const file of ['read.db', 'read.db-wal', 'read.db-shm']) rmSync(join(dir, file), { force: true });

  let peakRss = process.memoryUsage.rss();
  const rssSampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  const config = loadConfig({ SANDBOX: 'true', DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0' });
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, createLogger('silent')), { logger: ['error'] });
  const runtime = context.get(PlatformRuntime);
  const rows: string[][] = [];
  try {
    await runtime.register();
    const { platform } = runtime;
    const total = (await platform.events.headPosition()) ?? 0;
    const rawCpu: number[] = [];
    const raws: number[] = [rawRead(join(dir, 'events.db'), rawCpu)];
    console.log(`  raw read + JSON.parse: ${fmt(raws[0]!)} events/s`);
    for (const projection of platform.engine.subscribers.filter(isProjection).filter((p) => !ONLY || ONLY.includes(p.name))) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const { applied } = await rebuildProjection(platform.events, platform.readStore, projection, { nowMs: () => Date.now() });
      // Events of the log covered per second (a projection applies only its own streams' events, and the
      // others may be skipped without being read): the same unit as the raw loop's.
      const rate = total / ((performance.now() - started) / 1000);
      const cpu = cpuSeconds(process.cpuUsage(cpuBefore));
      // The raw loop again after each projection: the machine drifts, each projection is compared with the raw runs either side of it.
      raws.push(rawRead(join(dir, 'events.db'), rawCpu));
      const raw = (raws.at(-1)! + raws.at(-2)!) / 2;
      const ratio = rate / raw;
      console.log(
        `  ${projection.name}: ${fmt(rate)} events/s over the ${fmt(total)}-event log (${fmt(applied)} of them in its streams); raw either side ${fmt(raws.at(-2)!)} / ${fmt(raws.at(-1)!)} events/s; load average ${loadAverage()}`,
      );
      // CPU seconds of this process (every thread), which load on a shared machine inflates less than the wall clock.
      console.log(`    CPU: rebuild ${cpu.toFixed(1)} s, raw pass ${rawCpu.at(-1)!.toFixed(1)} s (CPU ratio ${(rawCpu.at(-1)! / cpu).toFixed(2)})`);
      // A projection none of whose streams occur in the log only skips: no verdict (since v3 the log holds every kind of event).
      const result = applied === 0 ? 'n/a (none of its events in the log)' : ratio >= RATIO_TARGET ? 'PASS' : 'MISS';
      rows.push([projection.name, fmt(rate), fmt(raw), ratio.toFixed(2), `>= ${RATIO_TARGET}`, result]);
      recordResult(`${projection.name}: rebuild / raw read + parse`, ratio.toFixed(2), `>= ${RATIO_TARGET}`, applied === 0 ? null : ratio >= RATIO_TARGET);
    }
    if (total < EVENTS) console.log(`  note: the log holds ${total} events`);
  } finally {
    await context.close();
    await runtime.stop();
    clearInterval(rssSampler);
  }
  console.log('');
  printTable(['projection', 'rebuild events/s', 'raw events/s', 'ratio', 'target', 'result'], rows);
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  verdict('peak RSS of the process (generation excluded when the log was cached)', peakRss / 1024 / 1024, RSS_TARGET_MIB, 'below', ' MiB', 0);
  console.log(`  load average after: ${loadAverage()}`);
}

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

/** Events/s of reading every event in position order, in batches, and parsing its JSON; its CPU seconds pushed to `cpu`. */
function rawRead(file: string, cpu: number[]): number {
  const db = new Database(file, { readonly: true });
  try {
    const select = db.prepare<[number, number], { position: number; data: string; metadata: string }>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?');
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    let after = 0;
    let count = 0;
    let sink = 0;
    for (;;) {
      const batch = select.all(after, RAW_BATCH);
      if (batch.length === 0) break;
      for (const row of batch) {
        const data = JSON.parse(row.data) as object;
        const metadata = JSON.parse(row.metadata) as object;
        sink += Object.keys(data).length + Object.keys(metadata).length;
      }
      count += batch.length;
      after = batch[batch.length - 1]!.position;
    }
    if (sink < 0) console.log(sink);
    cpu.push(cpuSeconds(process.cpuUsage(cpuBefore)));
    return count / ((performance.now() - started) / 1000);
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// Generating the log

/** Runs the template workload on the real service and copies its log until it holds EVENTS events. */
async function generateLog(dir: string): Promise<void> {
  const started = performance.now();
  console.log('  generating the log (once; later runs reuse it)...');
  const template = await templateLog();
  console.log(
    `  template: ${template.length} events from the real service (${TEMPLATE_SPLITS} settled Splits, ${TEMPLATE_ORDERS} paid orders, their webhook endpoint, ${TEMPLATE_SESSIONS} Payout Embed sessions, ${TEMPLATE_CREATORS} creators' withdrawals)`,
  );
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, 'events.db.partial');
  rmSync(partial, { force: true });
  const db = new Database(partial);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(EVENTS_SCHEMA);
  const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const writeCopy = db.transaction((copy: number, count: number) => {
    const suffix = copy.toString(36).padStart(5, '0');
    for (const event of template.slice(0, count)) {
      const streamId = renameIds(event.streamId, suffix);
      insert.run(
        streamId === event.streamId ? `${streamId}-${suffix}` : streamId,
        event.revision,
        randomUUID(),
        event.type,
        renameIds(JSON.stringify(event.data), suffix),
        renameIds(JSON.stringify(event.metadata), suffix),
      );
    }
  });
  for (let copy = 0, written = 0; written < EVENTS; copy++) {
    const count = Math.min(template.length, EVENTS - written);
    writeCopy(copy, count);
    written += count;
  }
  db.close();
  renameSync(partial, join(dir, 'events.db'));
  console.log(`  generated ${EVENTS} events in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** Every prefixed id (`spl_...`, `po_...`, `co_...`) gets the copy's suffix in place of its last 5 characters. */
const PREFIXED_ID = /\b([a-z]{2,5})_([0-9a-z]{16,40})\b/g;
const renameIds = (text: string, suffix: string) => text.replace(PREFIXED_ID, (_, prefix: string, body: string) => `${prefix}_${body.slice(0, -5)}${suffix}`);

async function templateLog(): Promise<RecordedEvent[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'paysplit-bench-rebuild-template-'));
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  const app = await startApp(
    loadConfig({ SANDBOX: 'true', PORT: '0', DATA_DIR: scratch, LOG_LEVEL: 'silent', ROLE: 'all', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }),
    createLogger('silent'),
  );
  try {
    const world = await splitWorld(app, { autoAccept: true, earlyPayout: true });
    const eventTypes = ['split.leg_a.approved', 'split.roster_entry.settled', 'checkout.completed'];
    await call(app, 'POST', '/api/commerce/webhooks/endpoints', { url: `http://127.0.0.1:${port}/hooks`, eventTypes }, world.sessionToken);
    const { key } = await call(app, 'POST', '/api/commerce/api-keys', { name: 'shop', scopes: ['checkout:write'] }, world.sessionToken);
    for (let i = 0; i < TEMPLATE_SPLITS; i++) await call(app, 'POST', '/api/commerce/integration/splits', JSON.parse(world.body()), world.apiKey);
    for (let i = 0; i < TEMPLATE_ORDERS; i++) {
      const order = await call(
        app,
        'POST',
        '/api/commerce/integration/checkout',
        { amountMinorUnits: '4999', currency: 'USD', provider: 'CARD_PROCESSOR', checkoutMode: 'EMBEDDED', idempotencyKey: `order-${i}`, returnUrl: 'https://shop.example/thanks' },
        key,
      );
      await call(app, 'POST', `/api/commerce/checkout/orders/${order.orderId ?? order.id}/confirm`, {
        clientSecret: order.clientSecret,
        card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
      });
    }
    await payoutEmbedSessions(app, world.sessionToken);
    const creators = await paidCreators(app, world);
    await settled(app);
    // The creators' rows have transferred to their service balance: each names a new wallet (with the code
    // emailed to it) and withdraws part of the balance there.
    for (const [i, creator] of creators.entries()) {
      const walletEmail = `creator-wallet${i}@bench-new-wallets.example`;
      await call(app, 'POST', '/api/commerce/me/wallet', { walletEmail }, creator);
      const messages = ((await call(app, 'GET', '/api/sandbox/outbox')) as { to: string; body: string }[]).filter((m) => m.to === walletEmail);
      const code = /Your code is (\d{6})/.exec(messages.at(-1)?.body ?? '')?.[1];
      if (!code) throw new Error(`no wallet code was sent to ${walletEmail}`);
      await call(app, 'POST', '/api/commerce/me/wallet/verify', { code }, creator);
      await call(app, 'POST', '/api/commerce/me/withdrawals', { amountCents: '6000', currency: 'USD' }, creator);
    }
    await settled(app);
    const events: RecordedEvent[] = [];
    for (let after = 0; ;) {
      const batch = await app.platform.events.readAll({ after, maxCount: 1000 });
      if (batch.length === 0) break;
      events.push(...batch);
      after = batch[batch.length - 1]!.position;
    }
    return events;
  } finally {
    await app.close();
    receiver.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Everything settles, pays out and delivers: the head stops moving and every subscriber is at it. */
async function settled(app: RunningApp): Promise<void> {
  for (let stable = 0, last = -1; stable < 4;) {
    await app.platform.engine.waitForHead(120_000);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const head = (await app.platform.events.headPosition()) ?? 0;
    stable = head === last ? stable + 1 : 0;
    last = head;
  }
}

/** The SME as a platform paying prizes from its topped-up balance (test/e2e/payout-embed.e2e.spec.ts's flow). */
async function payoutEmbedSessions(app: RunningApp, sessionToken: string): Promise<void> {
  const { key } = await call(app, 'POST', '/api/commerce/api-keys', { name: 'prizes', scopes: ['payout:write'] }, sessionToken);
  await call(app, 'POST', '/api/sandbox/balance/top-up', { amountCents: String(2500 * TEMPLATE_SESSIONS), currency: 'USD' }, sessionToken);
  for (let i = 0; i < TEMPLATE_SESSIONS; i++) {
    const recipientEmail = `winner${i}@bench-prizes.example`;
    const session = await call(
      app,
      'POST',
      SESSIONS,
      {
        recipientEmail,
        recipientName: `Winner ${i}`,
        amountCents: '2500',
        currency: 'USD',
        description: 'Contest prize',
        idempotencyKey: `prize-${i}`,
        allowedOrigins: ['https://platform.example'],
        returnUrl: 'https://platform.example/done',
      },
      key,
    );
    if (i % 5 === 4) {
      await call(app, 'POST', `${SESSIONS}/${session.id}/cancel`, undefined, key);
      continue;
    }
    // The page's calls, with the session's embed token: send a code, read it from the sandbox outbox, claim, name a wallet.
    const url = new URL(session.embedUrl as string);
    const [page, token] = [`/api/embed/payouts/${session.id}`, new URLSearchParams(url.hash.slice(1)).get('t')!];
    await call(app, 'POST', `${page}/code`, undefined, token);
    const messages = ((await call(app, 'GET', '/api/sandbox/outbox')) as { to: string; body: string }[]).filter((m) => m.to === recipientEmail);
    const code = /payout code is (\d{6})/.exec(messages.at(-1)?.body ?? '')?.[1];
    if (!code) throw new Error(`no claim code was sent to ${recipientEmail}`);
    await call(app, 'POST', `${page}/claim`, { code }, token);
    await call(app, 'POST', `${page}/wallet`, { walletEmail: `wallet${i}@bench-prizes.example` }, token);
  }
}

/** Creators with a wallet, paid through one auto-accepted Split (a row each, paid early), signed in: their session tokens. */
async function paidCreators(app: RunningApp, world: Awaited<ReturnType<typeof splitWorld>>): Promise<string[]> {
  const creators: { email: string; paymentProfileId: string }[] = [];
  for (let i = 0; i < TEMPLATE_CREATORS; i++) {
    const email = `creator${i}@bench-creators.example`;
    const created = await call(app, 'POST', '/api/sandbox/creators', { fullName: `Creator ${i}`, email, walletEmail: `creator-wallet${i}@bench-creators.example` });
    creators.push({ email, paymentProfileId: created.paymentProfileId });
  }
  const body = JSON.parse(world.body()) as Record<string, unknown>;
  body.roster = creators.map((creator) => ({ contractorPaymentProfileId: creator.paymentProfileId, amountCents: '10000', earlyPayoutElected: true }));
  await call(app, 'POST', '/api/commerce/integration/splits', body, world.apiKey);
  const messages = (await call(app, 'GET', '/api/sandbox/outbox')) as { to: string; link?: string }[];
  const tokens: string[] = [];
  for (const creator of creators) {
    const link = messages.find((message) => message.to === creator.email && message.link)?.link;
    if (!link) throw new Error(`no sign-in link was sent to ${creator.email}`);
    tokens.push((await call(app, 'POST', '/api/auth/magic-link/sign-in', { token: new URL(link).searchParams.get('token') })).sessionToken);
  }
  return tokens;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
