import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { tempDir } from '../../../test/support/temp-dir';
import { sqliteWalBytes, WalCheckpointer } from './wal-checkpointer';

/** Another connection reading all the time, as the API process and the CLI do: short read transactions, back to back. */
const READER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true });
db.pragma('busy_timeout = 5000');
const flag = new Int32Array(workerData.stop);
const latest = db.prepare('SELECT id FROM appended ORDER BY id DESC LIMIT 1');
const pause = new Int32Array(new SharedArrayBuffer(4));
while (Atomics.load(flag, 0) === 0) {
  db.exec('BEGIN');
  latest.get();
  Atomics.wait(pause, 0, 0, 3); // hold the snapshot a moment, as a read of a page of events does
  db.exec('COMMIT');
}
db.close();
`;

const MIB = 1024 * 1024;

describe('WalCheckpointer', () => {
  it('keeps the WAL bounded while a writer appends for a while under concurrent reads', async () => {
    const file = join(tempDir('wal'), 'events.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE appended (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const limitBytes = 2 * MIB;
    const checkpointer = new WalCheckpointer(db, file, { limitBytes });
    const stop = new SharedArrayBuffer(4);
    const readers = [0, 1].map(() => new Worker(READER, { eval: true, workerData: { file, driver: require.resolve('better-sqlite3'), stop } }));
    const insert = db.prepare('INSERT INTO appended (body) VALUES (?)');
    const appendBatch = db.transaction((rows: number) => {
      for (let i = 0; i < rows; i++) insert.run(Buffer.alloc(2048, i % 251));
    });

    // A steady 8 MiB/s of appends (a busy service), for 48 MiB: without RESTART checkpoints the WAL
    // outgrows what was written; with them it stays within a checkpoint tick or two of the limit.
    let largest = 0;
    let written = 0;
    const started = Date.now();
    while (written < 24 * limitBytes && Date.now() < started + 15_000) {
      appendBatch(100);
      written += 100 * 2048;
      largest = Math.max(largest, sqliteWalBytes(file));
      const due = started + (written / (8 * MIB)) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, due - Date.now())));
    }
    Atomics.store(new Int32Array(stop), 0, 1);
    await Promise.all(readers.map((reader) => new Promise((resolve) => reader.once('exit', resolve))));
    await checkpointer.stop();
    db.close();

    expect(written).toBeGreaterThanOrEqual(24 * limitBytes);
    expect(checkpointer.restarts.attempted).toBeGreaterThan(0);
    expect(largest).toBeLessThan(8 * limitBytes);
  }, 30_000);

  it('restarts a WAL over the limit once, not on every tick while nothing more is written', async () => {
    const file = join(tempDir('wal'), 'events.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE appended (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const limitBytes = 1 * MIB;
    const checkpointer = new WalCheckpointer(db, file, { limitBytes });
    const insert = db.prepare('INSERT INTO appended (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 1024; i++) insert.run(Buffer.alloc(2048, i % 251));
    })();
    expect(sqliteWalBytes(file)).toBeGreaterThan(limitBytes);

    // A dozen checks of the file, over the limit until the next write restarts the WAL and cuts it back.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const afterIdle = { ...checkpointer.restarts };
    insert.run(Buffer.alloc(16, 1));
    await checkpointer.stop();
    db.close();

    expect(afterIdle).toEqual({ attempted: 1, failed: 0 });
    expect(sqliteWalBytes(file)).toBeLessThanOrEqual(limitBytes);
  });
});
