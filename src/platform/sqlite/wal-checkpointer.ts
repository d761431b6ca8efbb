import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** How often the thread looks at the WAL file's size (a stat), to restart the WAL soon after it passes the limit. */
const CHECK_INTERVAL_MS = 100;
/**
 * A PASSIVE checkpoint runs every this many checks (once a second). It copies each page changed since
 * the last one once, however often it changed, and fsyncs the database file; hot pages (B-tree roots,
 * checkpoint rows, a busy document's leaf) change in every group commit, so copying once a second
 * instead of every 100 ms cut what the api process writes under the mixed bench by ~43% and its CPU by
 * ~8% (docs/decisions.md); every 3 s made the copies bursty.
 */
const CHECKS_PER_PASSIVE_CHECKPOINT = 10;
/** Once the WAL holds more than this, it is restarted; also SQLite's journal_size_limit. */
export const DEFAULT_WAL_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * How long a RESTART checkpoint may wait for the readers of older snapshots. It blocks new writers
 * meanwhile (a write on the service's thread waits that long at most), so it is short; when it runs out
 * the checkpoint gives up and the next tick tries again.
 */
const RESTART_BUSY_TIMEOUT_MS = 100;
/** After this many RESTART checkpoints in a row that could not finish, a process warning says so (once). */
const WARN_AFTER_FAILED_RESTARTS = 100;

/**
 * Runs in the checkpoint thread: its own connection; a PASSIVE checkpoint once a second, and one as soon
 * as the WAL file is over the limit; after a PASSIVE one that found the WAL holding more than the limit
 * (its `log` frames), a RESTART. The file outgrows the limit only when its frames do (journal_size_limit
 * cuts it back to the limit when the WAL restarts), and a RESTART is not repeated for a WAL that has not
 * restarted since (the same frames).
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const pageBytes = db.pragma('page_size', { simple: true });
const walFile = workerData.file + '-wal';
const walFileBytes = () => {
  try {
    return statSync(walFile).size;
  } catch {
    return 0;
  }
};
let checks = 0;
let restartedAtFrames = -1;
const timer = setInterval(() => {
  try {
    checks += 1;
    if (walFileBytes() <= workerData.limitBytes && checks % workerData.checksPerPassive !== 0) return;
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    const heldBytes = passive.log * pageBytes;
    if (heldBytes <= workerData.limitBytes || passive.log === restartedAtFrames) return;
    // PASSIVE checkpoints never let the WAL restart while writers keep appending. The one just run copied
    // nearly everything without the write lock; RESTART copies the rest under it, waits briefly for older
    // readers, and so lets the next writer start again at the head of the file.
    db.pragma('busy_timeout = ' + workerData.restartBusyMs);
    const [result] = db.pragma('wal_checkpoint(RESTART)');
    db.pragma('busy_timeout = 5000');
    const ok = result.busy === 0;
    restartedAtFrames = ok ? passive.log : -1;
    parentPort.postMessage({ kind: 'restart', ok, heldBytes });
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
  /** The WAL is kept around this size (default 64 MiB): journal_size_limit, and RESTART checkpoints above it. */
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
 * checkpoint racing a busy writer never achieves: under steady load the WAL grew by gigabytes. So when
 * the WAL holds more than the limit, the thread follows its PASSIVE checkpoint with a RESTART: it blocks
 * new writers for the moment it takes to copy what the PASSIVE one left and for older readers to finish
 * (at most 100 ms, then it gives up until the next tick), and the next writer starts again at the head
 * of the file, overwriting it in place. It used to be TRUNCATE, which also empties the file: under the
 * mixed bench that held writers for 40-47 ms a time against 8-14 ms for RESTART after a PASSIVE, and a
 * WAL that regrows from nothing costs its appends block allocation on every fsync (the api's commits took
 * 17% longer on average; docs/decisions.md, "The WAL restarts in place"). `journal_size_limit` cuts the
 * file back to the limit whenever the WAL restarts.
 *
 * If the thread fails, the connection gets its automatic checkpoints back and a process warning says why.
 */
export class WalCheckpointer {
  private readonly thread: Worker;
  private readonly exited: Promise<void>;
  private failedRestarts = 0;
  /** RESTART checkpoints run because the WAL held more than the limit, and how many could not finish. */
  readonly restarts = { attempted: 0, failed: 0 };

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
        restartBusyMs: RESTART_BUSY_TIMEOUT_MS,
      },
    });
    this.thread.unref();
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.on('message', (message: { kind: 'restart'; ok: boolean; heldBytes: number }) => this.onRestart(message));
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

  private onRestart({ ok, heldBytes }: { ok: boolean; heldBytes: number }): void {
    this.restarts.attempted += 1;
    if (ok) {
      this.failedRestarts = 0;
      return;
    }
    this.restarts.failed += 1;
    this.failedRestarts += 1;
    if (this.failedRestarts === WARN_AFTER_FAILED_RESTARTS) {
      process.emitWarning(`the WAL of ${this.file} holds ${heldBytes} bytes and ${WARN_AFTER_FAILED_RESTARTS} RESTART checkpoints in a row found readers still on it`);
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
