import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** How often the thread looks at the WAL's size, and TRUNCATEs it when it is over the limit. */
const CHECK_INTERVAL_MS = 100;
/**
 * A PASSIVE checkpoint runs every this many checks (once a second). It copies each page changed since
 * the last one once, however often it changed, and fsyncs the database file; hot pages (B-tree roots,
 * checkpoint rows, a busy document's leaf) change in every group commit, so copying once a second
 * instead of every 100 ms cut what the api process writes under the mixed bench by ~43% and its CPU by
 * ~8% (docs/decisions.md); every 3 s made the copies bursty.
 */
const CHECKS_PER_PASSIVE_CHECKPOINT = 10;
/** Above this size the WAL is checkpointed with TRUNCATE; also SQLite's journal_size_limit. */
export const DEFAULT_WAL_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * How long a TRUNCATE checkpoint may wait for the readers of older snapshots. It blocks new writers
 * meanwhile (a write on the service's thread waits that long at most), so it is short; when it runs out
 * the checkpoint gives up and the next tick tries again.
 */
const TRUNCATE_BUSY_TIMEOUT_MS = 100;
/** After this many TRUNCATE checkpoints in a row that could not finish, a process warning says so (once). */
const WARN_AFTER_FAILED_TRUNCATES = 100;

/** Runs in the checkpoint thread: its own connection, a PASSIVE checkpoint once a second, TRUNCATE as soon as the WAL is too big. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const walFile = workerData.file + '-wal';
const walBytes = () => {
  try {
    return statSync(walFile).size;
  } catch {
    return 0;
  }
};
let checks = 0;
const timer = setInterval(() => {
  try {
    const before = walBytes();
    if (before <= workerData.limitBytes) {
      checks += 1;
      if (checks % workerData.checksPerPassive === 0) db.pragma('wal_checkpoint(PASSIVE)');
      return;
    }
    // PASSIVE checkpoints never let the WAL restart while writers keep appending: copy the rest, wait
    // briefly for older readers, and truncate the file to zero.
    db.pragma('busy_timeout = ' + workerData.truncateBusyMs);
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('busy_timeout = 5000');
    parentPort.postMessage({ kind: 'truncate', ok: result.busy === 0, before, after: walBytes() });
  } catch (error) {
    clearInterval(timer);
    db.close();
    throw error;
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointerOptions {
  /** The WAL is kept around this size (default 64 MiB): journal_size_limit, and TRUNCATE checkpoints above it. */
  limitBytes?: number;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop and keeps the WAL bounded.
 *
 * A checkpoint copies the WAL back into the database and fsyncs it; SQLite runs it by default inside the
 * commit that crosses 1000 WAL pages, stalling that commit, and every request waiting behind it, for
 * milliseconds. A PASSIVE checkpoint never blocks writers, so the connection turns automatic
 * checkpoints off and a thread of its own runs one every second.
 *
 * But the WAL file only starts over when a writer finds it completely copied back, which a PASSIVE
 * checkpoint racing a busy writer never achieves: under steady load the WAL grew by gigabytes. So
 * when the WAL is over the limit, the thread runs a TRUNCATE checkpoint instead: it blocks new writers
 * for the moment it takes to copy what is left and for older readers to finish (at most 100 ms, then
 * it gives up until the next tick), and empties the file. `journal_size_limit` also truncates the WAL to
 * the limit whenever SQLite restarts it by itself.
 *
 * If the thread fails, the connection gets its automatic checkpoints back and a process warning says why.
 */
export class WalCheckpointer {
  private readonly thread: Worker;
  private readonly exited: Promise<void>;
  private failedTruncates = 0;
  /** TRUNCATE checkpoints run because the WAL was over the limit, and how many could not finish. */
  readonly truncates = { attempted: 0, failed: 0 };

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    options: WalCheckpointerOptions = {},
  ) {
    const limitBytes = options.limitBytes ?? DEFAULT_WAL_LIMIT_BYTES;
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${Math.floor(limitBytes)}`);
    this.thread = new Worker(THREAD, {
      eval: true,
      workerData: {
        file,
        driver: require.resolve('better-sqlite3'),
        intervalMs: CHECK_INTERVAL_MS,
        checksPerPassive: CHECKS_PER_PASSIVE_CHECKPOINT,
        limitBytes,
        truncateBusyMs: TRUNCATE_BUSY_TIMEOUT_MS,
      },
    });
    this.thread.unref();
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.on('message', (message: { kind: 'truncate'; ok: boolean; before: number }) => this.onTruncate(message));
    this.thread.on('error', (error) => {
      process.emitWarning(`WAL checkpoints of ${file} failed (${error.message}); SQLite checkpoints on commit again`);
      if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
    });
  }

  /** The WAL file's size now (0 when there is none). */
  walBytes(): number {
    return sqliteWalBytes(this.file);
  }

  async stop(): Promise<void> {
    this.thread.ref(); // keep the process alive until the thread has closed its connection
    this.thread.postMessage('stop');
    await this.exited;
  }

  private onTruncate({ ok, before }: { ok: boolean; before: number }): void {
    this.truncates.attempted += 1;
    if (ok) {
      this.failedTruncates = 0;
      return;
    }
    this.truncates.failed += 1;
    this.failedTruncates += 1;
    if (this.failedTruncates === WARN_AFTER_FAILED_TRUNCATES) {
      process.emitWarning(`the WAL of ${this.file} is ${before} bytes and ${WARN_AFTER_FAILED_TRUNCATES} TRUNCATE checkpoints in a row found readers still on it`);
    }
  }
}

/** The size of a SQLite database's WAL file (`<file>-wal`), 0 when there is none. */
export function sqliteWalBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
