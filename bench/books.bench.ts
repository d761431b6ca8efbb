import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { startApp, RunningApp } from '../src/bootstrap';
import { loadConfig } from '../src/platform/config/app-config';
import { createLogger } from '../src/platform/logging/app-logger';
import { LEDGER_LINES, LedgerLineDoc, lineId, lineKey } from '../src/ledger/projections/ledger-lines';
import { call, loadAverage, median, printTable, verdict } from './http-load';

/**
 * Balance transactions at scale (issue 28): one company with BENCH_BOOKS_LINES (1,000,000) ledger lines.
 *  - a page of balance transactions over HTTP (the first page and pages at random cursors, 100 rows):
 *    p99 < 50 ms;
 *  - the full CSV export over HTTP (`Accept: text/csv`, every row) against a raw read of the same rows in
 *    the same run (better-sqlite3 iterating the lines table in the export's order and JSON.parsing each
 *    row): >= 0.5x its rate.
 * The lines are written straight into the ledger projection's table of a fresh data directory (the
 * projection's own writes are measured by `npm run bench -- rebuild`); the service is then started on it.
 */
const LINES = Math.max(10_000, Number(process.env.BENCH_BOOKS_LINES) || 1_000_000);
const PAGE_P99_TARGET_MS = 50;
const RATIO_TARGET = 0.5;
const PAGE_SIZE = 100;
const PAGE_SAMPLES = 400;
const TYPES = ['funding', 'row_transfer', 'margin_release', 'top_up', 'payout_reserve', 'payout_release', 'payout_paid', 'sme_fee_set_aside'];
const ACCOUNTS = ['company_balance', 'payout_reserve', 'sme_margin_hold', 'sme_fee_reserve'];

export async function booksBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'paysplit-bench-books-'));
  console.log(`books bench: ${LINES.toLocaleString('en-US')} ledger lines of one company in ${dir}; load average ${loadAverage()}`);
  console.log(`  targets: a page of ${PAGE_SIZE} balance transactions p99 < ${PAGE_P99_TARGET_MS} ms; the full CSV export >= ${RATIO_TARGET}x a raw read of the same rows`);
  const config = loadConfig({ SANDBOX: 'true', PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent' });
  let app: RunningApp | null = await startApp(config, createLogger('silent'));
  try {
    const signedUp = await call(app, 'POST', '/api/auth/signup', { companyName: 'Books Bench', email: `books-${Date.now()}@example.test`, password: 'correct horse battery' });
    const key = (await call(app, 'POST', '/api/commerce/api-keys', { name: 'reader', scopes: ['payout:write'] }, signedUp.sessionToken)).key as string;
    await app.close();
    app = null;

    const table = fillLines(join(dir, 'read.db'), signedUp.companyId as string);
    app = await startApp(config, createLogger('silent'));
    const running = app;
    const page = async (cursor?: string) => {
      const started = performance.now();
      const rows = (await call(running, 'GET', `/api/commerce/balance-transactions?limit=${PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ''}`, undefined, key)) as unknown[];
      if (rows.length !== PAGE_SIZE) throw new Error(`a page held ${rows.length} rows`);
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i++) await page();
    const first: number[] = [];
    const deep: number[] = [];
    for (let i = 0; i < PAGE_SAMPLES; i++) {
      first.push(await page());
      const position = 1 + Math.floor(Math.random() * (LINES - PAGE_SIZE * 2)) + PAGE_SIZE;
      deep.push(await page(lineId(position, 1)));
    }

    // The same rows two ways, alternating, twice: raw read-and-parse, and the CSV export over HTTP.
    const raw = () => {
      const db = new Database(join(dir, 'read.db'), { readonly: true });
      const cpu = process.cpuUsage();
      const started = performance.now();
      let rows = 0;
      for (const row of db
        .prepare(`SELECT body FROM ${table} WHERE json_extract(body, '$.owner') = ? ORDER BY json_extract(body, '$.key') DESC`)
        .iterate(signedUp.companyId) as Iterable<{ body: string }>) {
        JSON.parse(row.body);
        rows += 1;
      }
      const ms = performance.now() - started;
      const cpuMs = cpuMsSince(cpu);
      db.close();
      return { rows, ms, cpuMs };
    };
    const exported = async () => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const response = await fetch(`${running.url}/api/commerce/balance-transactions`, { headers: { authorization: `Bearer ${key}`, accept: 'text/csv' } });
      let rows = -1; // the header row
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) rows += (decoder.decode(chunk, { stream: true }).match(/\n/g) ?? []).length;
      return { rows, ms: performance.now() - started, cpuMs: cpuMsSince(cpu) };
    };
    type Read = { rows: number; ms: number; cpuMs: number };
    const rounds: { raw: Read; csv: Read }[] = [];
    // Three rounds, so the median is one measured round and a single slow or fast one does not decide.
    for (let i = 0; i < 3; i++) rounds.push({ raw: raw(), csv: await exported() });
    for (const round of rounds)
      if (round.raw.rows !== LINES || round.csv.rows !== LINES) throw new Error(`read ${round.raw.rows} raw rows and ${round.csv.rows} CSV rows of ${LINES}`);

    const rate = (r: { rows: number; ms: number }) => (r.rows / r.ms) * 1000;
    const ratios = rounds.map((r) => rate(r.csv) / rate(r.raw));
    printTable(
      ['measure', 'p50 ms', 'p99 ms', 'max ms'],
      [
        ['first page', ...stats(first)],
        ['page at a random cursor', ...stats(deep)],
      ],
    );
    // CPU s (the process's, server and client alike): steadier than the rates on a shared machine; the target is on the rates.
    printTable(
      ['round', 'raw rows/s', 'raw s', 'raw CPU s', 'CSV rows/s', 'CSV s', 'CSV CPU s', 'ratio', 'CPU ratio'],
      rounds.map((r, i) => [
        String(i + 1),
        rate(r.raw).toFixed(0),
        (r.raw.ms / 1000).toFixed(2),
        (r.raw.cpuMs / 1000).toFixed(2),
        rate(r.csv).toFixed(0),
        (r.csv.ms / 1000).toFixed(2),
        (r.csv.cpuMs / 1000).toFixed(2),
        ratios[i]!.toFixed(3),
        (r.raw.cpuMs / r.csv.cpuMs).toFixed(3),
      ]),
    );
    verdict('page p99 (first page and random cursors)', percentile([...first, ...deep], 0.99), PAGE_P99_TARGET_MS, 'below', ' ms', 2);
    verdict('CSV export rate / raw read rate (median of rounds)', median(ratios), RATIO_TARGET, 'atLeast');
  } finally {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes the lines straight into the ledger projection's active lines table; answers the table's name. */
function fillLines(file: string, companyId: string): string {
  const db = new Database(file);
  const { active_generation } = db.prepare('SELECT active_generation FROM projections WHERE name = ?').get('ledger') as { active_generation: number };
  const table = `rm_${LEDGER_LINES}_g${active_generation}`;
  const insert = db.prepare(`INSERT INTO ${table} (id, body) VALUES (?, ?)`);
  const started = performance.now();
  const balances = new Map<string, bigint>();
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  for (let done = 0; done < LINES;) {
    db.transaction(() => {
      for (let i = 0; i < 10_000 && done < LINES; i++, done++) {
        const position = done + 1;
        const accountType = ACCOUNTS[position % ACCOUNTS.length]!;
        const amount = BigInt((position % 7) - 2) * 1250n;
        const balance = (balances.get(accountType) ?? 0n) + amount;
        balances.set(accountType, balance);
        const line: LedgerLineDoc = {
          id: lineId(position, 1),
          key: lineKey(position, 1),
          account: `${accountType}:${companyId}`,
          accountType,
          owner: companyId,
          currency: 'USD',
          amountCents: amount.toString(),
          balanceAfterCents: balance.toString(),
          type: TYPES[position % TYPES.length]!,
          source: `spl_${position.toString(36).padStart(26, '0')}`,
          postingId: `spl_${position.toString(36).padStart(26, '0')}:0001`,
          eventId: `0193a7c4-0000-7000-8000-${position.toString(16).padStart(12, '0')}`,
          position,
          postedAt: new Date(start + position * 30_000).toISOString(),
          memo: `Row dst_${position.toString(36)} transferred to its contractor`,
        };
        insert.run(line.id, JSON.stringify(line));
      }
    })();
  }
  console.log(`  wrote ${LINES.toLocaleString('en-US')} lines in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  db.close();
  return table;
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const stats = (values: number[]): string[] => [percentile(values, 0.5), percentile(values, 0.99), Math.max(...values)].map((v) => v.toFixed(2));
