import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EVENTS_SCHEMA } from '../src/platform/event-store/sqlite/sqlite-event-store';
import { timeOrderedUuid } from '../src/platform/ids/ids';
import { recordResult, sized } from './bench-mode';

/**
 * What the event id's shape costs the embedded store: the same appends (10 per transaction, new
 * random stream ids, one create-checkout-sized event each) onto an events table already holding
 * PREFILL events, once with random UUID v4 ids and once with time-ordered UUID v7 ids (what the
 * service uses). Automatic checkpoints are off so the WAL's size is exactly what the appends wrote.
 * Rounds alternate; the best round of each side is compared.
 */
const PREFILL = sized(150_000, 2_000);
const MEASURED = sized(20_000, 500);
const PER_TRANSACTION = 10;
const ROUNDS = sized(Math.max(1, Number(process.env.BENCH_ROUNDS) || 2), 1);

const DATA = JSON.stringify({
  orderId: 'ord_0000000000',
  merchantCompanyId: 'co_00mwrdtkynvvm0rbk1zixwt3kv',
  amountMinorUnits: '1999',
  currency: 'USD',
  returnUrl: 'https://shop.example/thanks',
  pageToken: 'x'.repeat(32),
});

interface Figures {
  microsPerAppend: number;
  walBytesPerAppend: number;
}

function run(newId: () => string): Figures {
  const dir = mkdtempSync(join(tmpdir(), 'paysplit-bench-event-ids-'));
  const db = new Database(join(dir, 'events.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec(EVENTS_SCHEMA);
    const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, 0, ?, ?, ?, ?)');
    const appendMany = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) insert.run(`checkout_order-ord_${randomUUID()}`, newId(), 'checkout.order.created', DATA, '{}');
    });
    for (let done = 0; done < PREFILL; done += 1000) appendMany(1000);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const started = performance.now();
    for (let done = 0; done < MEASURED; done += PER_TRANSACTION) appendMany.immediate(PER_TRANSACTION);
    const elapsed = performance.now() - started;
    return { microsPerAppend: (elapsed * 1000) / MEASURED, walBytesPerAppend: statSync(join(dir, 'events.db-wal')).size / MEASURED };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function eventIdsBench(): Promise<void> {
  const v4: Figures[] = [];
  const v7: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    v4.push(run(() => randomUUID()));
    v7.push(run(() => timeOrderedUuid(Date.now())));
  }
  const best = (rounds: Figures[]) => rounds.reduce((a, b) => (b.microsPerAppend < a.microsPerAppend ? b : a));
  const [random, ordered] = [best(v4), best(v7)];
  const fmt = (f: Figures) => `${f.microsPerAppend.toFixed(1)} µs/append, ${(f.walBytesPerAppend / 1024).toFixed(1)} KiB of WAL/append`;
  console.log(`event-ids bench: ${MEASURED} appends (${PER_TRANSACTION} per transaction) onto ${PREFILL} events, best of ${ROUNDS}`);
  console.log(`  random UUID v4 ids        ${fmt(random)}`);
  console.log(`  time-ordered UUID v7 ids  ${fmt(ordered)}`);
  console.log(`  v7/v4: time ${(ordered.microsPerAppend / random.microsPerAppend).toFixed(2)}, WAL ${(ordered.walBytesPerAppend / random.walBytesPerAppend).toFixed(2)}`);
  recordResult('time per append, v7 ids / v4 ids', (ordered.microsPerAppend / random.microsPerAppend).toFixed(2), 'none', null);
}
