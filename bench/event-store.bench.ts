import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExpectedRevision, NewEvent } from '../src/platform/event-store/event-store.port';
import { SqliteEventStore } from '../src/platform/event-store/sqlite/sqlite-event-store';
import { openRawStore } from './event-store.raw-baseline';
import { recordResult, sized } from './bench-mode';

/**
 * Append throughput of SqliteEventStore against a raw better-sqlite3 loop doing the same SQL
 * (bench/event-store.raw-baseline.ts). Every append carries the exact expected revision, so the
 * optimistic-concurrency check runs each time. Both sides replay the same pre-built plan (same
 * streams, ids and payloads) into a fresh database in a fresh temp directory; rounds alternate
 * adapter and raw, and the best round of each side is compared.
 */

/** Rounds per side; override with BENCH_ROUNDS (e.g. 5 on a noisy machine). */
const ROUNDS = sized(Math.max(1, Number(process.env.BENCH_ROUNDS) || 3), 1);

interface Scenario {
  name: string;
  eventsPerAppend: number;
  streams: number;
  /** Appends before the clock starts (the first one per stream uses 'no_stream'). */
  warmupAppends: number;
  measuredAppends: number;
  /** Minimum adapter/raw events-per-second ratio. */
  target: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'single', eventsPerAppend: 1, streams: 1000, warmupAppends: sized(2000, 100), measuredAppends: sized(20_000, 500), target: 0.5 },
  { name: 'batch x100', eventsPerAppend: 100, streams: 50, warmupAppends: 50, measuredAppends: sized(300, 20), target: 0.7 },
];

interface PlannedAppend {
  streamId: string;
  /** -1 when the stream does not exist yet. */
  expected: number;
  events: NewEvent[];
}

interface Result {
  ns: bigint;
  events: number;
  appends: number;
}

export async function eventStoreBench(): Promise<void> {
  console.log(`event-store bench: SqliteEventStore vs raw better-sqlite3 (best of ${ROUNDS}, alternating)`);
  const rows: string[][] = [];
  for (const scenario of SCENARIOS) {
    const plan = buildPlan(scenario);
    const adapter: Result[] = [];
    const raw: Result[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Swap which side goes first each round so drift (thermal, page cache, other load) hits both.
      const order = round % 2 === 0 ? (['adapter', 'raw'] as const) : (['raw', 'adapter'] as const);
      for (const side of order) {
        collectGarbage();
        if (side === 'adapter') adapter.push(await runAdapter(scenario, plan));
        else raw.push(runRaw(scenario, plan));
      }
    }
    const bestAdapter = best(adapter);
    const bestRaw = best(raw);
    const ratio = eventsPerSecond(bestAdapter) / eventsPerSecond(bestRaw);
    console.log(
      `  ${scenario.name}: ${scenario.measuredAppends} appends x ${scenario.eventsPerAppend} event(s), ` +
        `${scenario.streams} streams round-robin, events/s per round: ` +
        `adapter [${adapter.map((r) => fmt(eventsPerSecond(r))).join(', ')}] ` +
        `raw [${raw.map((r) => fmt(eventsPerSecond(r))).join(', ')}]`,
    );
    rows.push([
      scenario.name,
      fmt(eventsPerSecond(bestAdapter)),
      fmt(appendsPerSecond(bestAdapter)),
      fmt(eventsPerSecond(bestRaw)),
      fmt(appendsPerSecond(bestRaw)),
      ratio.toFixed(2),
      `>= ${scenario.target.toFixed(1)}`,
      ratio >= scenario.target ? 'PASS' : 'MISS',
    ]);
    recordResult(`${scenario.name}: adapter/raw events/s (both synchronous = FULL)`, ratio.toFixed(2), `>= ${scenario.target.toFixed(1)}`, ratio >= scenario.target);
  }
  console.log('');
  printTable(['case', 'adapter events/s', 'adapter appends/s', 'raw events/s', 'raw appends/s', 'adapter/raw', 'target', 'result'], rows);
}

function buildPlan(scenario: Scenario): PlannedAppend[] {
  const heads = new Array<number>(scenario.streams).fill(-1);
  const streamIds = Array.from({ length: scenario.streams }, (_, i) => `payment-${randomUUID()}-${i}`);
  const plan: PlannedAppend[] = [];
  const total = scenario.warmupAppends + scenario.measuredAppends;
  for (let n = 0; n < total; n += 1) {
    const s = n % scenario.streams;
    const events = Array.from({ length: scenario.eventsPerAppend }, () => makeEvent(streamIds[s]!));
    plan.push({ streamId: streamIds[s]!, expected: heads[s]!, events });
    heads[s]! += scenario.eventsPerAppend;
  }
  return plan;
}

/** ~200 bytes of data JSON and a full metadata envelope, like a real split-payment event. */
function makeEvent(streamId: string): NewEvent {
  const correlationId = randomUUID();
  return {
    id: randomUUID(),
    type: 'PaymentSplitAllocated',
    data: {
      paymentId: streamId.slice(0, 44),
      merchantId: 'mer_7f3a9c21',
      amount: { minor: 129_990, currency: 'EUR' },
      splits: [
        { accountId: 'acc_seller_001', minor: 116_991 },
        { accountId: 'acc_platform', minor: 12_999 },
      ],
      method: 'card',
    },
    metadata: {
      correlationId,
      causationId: randomUUID(),
      actor: 'user:3f9e2b7c',
      occurredAt: new Date().toISOString(),
    },
  };
}

async function runAdapter(scenario: Scenario, plan: PlannedAppend[]): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'paysplit-bench-es-adapter-'));
  const store = new SqliteEventStore(join(dir, 'events.db'));
  try {
    const expected = (p: PlannedAppend): ExpectedRevision => (p.expected < 0 ? 'no_stream' : p.expected);
    for (let i = 0; i < scenario.warmupAppends; i += 1) {
      const p = plan[i]!;
      await store.append(p.streamId, p.events, expected(p));
    }
    const start = process.hrtime.bigint();
    for (let i = scenario.warmupAppends; i < plan.length; i += 1) {
      const p = plan[i]!;
      await store.append(p.streamId, p.events, expected(p));
    }
    const ns = process.hrtime.bigint() - start;
    const stored = (await store.readAll({ after: 0, maxCount: 1_000_000 })).length;
    assertStored(scenario, stored, 'adapter');
    return { ns, events: scenario.measuredAppends * scenario.eventsPerAppend, appends: scenario.measuredAppends };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runRaw(scenario: Scenario, plan: PlannedAppend[]): Result {
  const dir = mkdtempSync(join(tmpdir(), 'paysplit-bench-es-raw-'));
  const store = openRawStore(join(dir, 'events.db'));
  try {
    for (let i = 0; i < scenario.warmupAppends; i += 1) {
      const p = plan[i]!;
      store.append(p.streamId, p.events, p.expected);
    }
    const start = process.hrtime.bigint();
    for (let i = scenario.warmupAppends; i < plan.length; i += 1) {
      const p = plan[i]!;
      store.append(p.streamId, p.events, p.expected);
    }
    const ns = process.hrtime.bigint() - start;
    assertStored(scenario, store.count(), 'raw');
    return { ns, events: scenario.measuredAppends * scenario.eventsPerAppend, appends: scenario.measuredAppends };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertStored(scenario: Scenario, stored: number, side: string): void {
  const wanted = (scenario.warmupAppends + scenario.measuredAppends) * scenario.eventsPerAppend;
  if (stored !== wanted) throw new Error(`${side} ${scenario.name}: stored ${stored} events, wanted ${wanted}`);
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function best(results: Result[]): Result {
  return results.reduce((a, b) => (b.ns < a.ns ? b : a));
}

function eventsPerSecond(r: Result): number {
  return (r.events * 1e9) / Number(r.ns);
}

function appendsPerSecond(r: Result): number {
  return (r.appends * 1e9) / Number(r.ns);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row));
}
