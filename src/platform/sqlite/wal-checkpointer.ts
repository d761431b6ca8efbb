import Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';

const CHECKPOINT_INTERVAL_MS = 100;

/** Runs in the checkpoint thread: its own connection, a PASSIVE checkpoint per interval. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
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

/**
 * Moves SQLite's WAL checkpoints off the event loop. A checkpoint copies the WAL back into the database
 * and fsyncs it; SQLite runs it by default inside the commit that crosses 1000 WAL pages, stalling that
 * commit, and every request waiting behind it, for milliseconds. A PASSIVE checkpoint never blocks
 * writers, so the connection turns automatic checkpoints off and a thread of its own runs one every
 * 100 ms. If that thread fails, the connection gets its automatic checkpoints back and a process
 * warning says why.
 */
export class WalCheckpointer {
  private readonly thread: Worker;
  private readonly exited: Promise<void>;

  constructor(
    private readonly db: Database.Database,
    file: string,
  ) {
    db.pragma('wal_autocheckpoint = 0');
    this.thread = new Worker(THREAD, { eval: true, workerData: { file, driver: require.resolve('better-sqlite3'), intervalMs: CHECKPOINT_INTERVAL_MS } });
    this.thread.unref();
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.on('error', (error) => {
      process.emitWarning(`WAL checkpoints of ${file} failed (${error.message}); SQLite checkpoints on commit again`);
      if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
    });
  }

  async stop(): Promise<void> {
    this.thread.ref(); // keep the process alive until the thread has closed its connection
    this.thread.postMessage('stop');
    await this.exited;
  }
}
