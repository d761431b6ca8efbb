import { Worker } from 'node:worker_threads';
import { DURABLE_WAL_PRAGMAS } from '../../sqlite/durable-wal';
import { DEFAULT_WAL_LIMIT_BYTES } from '../../sqlite/wal-checkpointer';
import type { GroupSending } from './event-group-commit';
import { AppendOutcome, AppendRequest, groupAppender, SqliteAppendError } from './group-appender';

type ThreadReply =
  | { kind: 'ready'; journalMode: string; synchronous: number }
  | { kind: 'committed'; outcomes: AppendOutcome[] }
  /** SQLite abandoned the whole group (disk full, I/O error): nothing of it was stored. */
  | { kind: 'failed'; error: { message: string; code: string } };

/**
 * Runs in the writer thread: its own connection to events.db with the service's durable pragmas, and the
 * store's append transaction (groupAppender, as source text). It answers a group only after COMMIT
 * returned, i.e. after the WAL frames were fsynced (synchronous = FULL); other connections see the commit
 * from then on.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
for (const pragma of workerData.pragmas) db.pragma(pragma);
// The store's WAL checkpointer thread checkpoints; this connection never does it inside a commit.
db.pragma('wal_autocheckpoint = 0');
db.pragma('journal_size_limit = ' + workerData.walLimitBytes);
const appendGroup = (${groupAppender.toString()})(db);
parentPort.on('message', (group) => {
  if (group === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ kind: 'committed', outcomes: appendGroup(group) });
  } catch (error) {
    parentPort.postMessage({ kind: 'failed', error: { message: String(error.message), code: String(error.code || 'SQLITE_ERROR') } });
  }
});
parentPort.postMessage({ kind: 'ready', journalMode: db.pragma('journal_mode', { simple: true }), synchronous: db.pragma('synchronous', { simple: true }) });
`;

/** How the api's groups go to the thread: two in flight, the first as soon as it holds eight appends (measured in docs/decisions.md). */
export const WRITER_THREAD_SENDING: GroupSending = { sendAtAppends: 8, maxInFlight: 2 };

/**
 * Commits the event store's append groups on a thread of its own (issue 31): with synchronous = FULL a
 * commit waits for an fsync, and on the service's thread that wait blocks every request for its length.
 * Groups sent while one commits wait in the thread's message queue and are committed, and answered, in
 * the order sent (EventGroupCommit sends at most WRITER_THREAD_SENDING.maxInFlight).
 */
export class EventWriterThread {
  private readonly thread: Worker;
  private readonly exited: Promise<void>;
  private readonly waiting: { resolve: (outcomes: AppendOutcome[]) => void; reject: (error: Error) => void }[] = [];
  private failure: Error | null = null;
  private stopping = false;
  /** The writer connection's journal mode and synchronous level, once it has opened the file. */
  readonly pragmas: Promise<{ journalMode: string; synchronous: number }>;

  constructor(file: string) {
    this.thread = new Worker(THREAD, {
      eval: true,
      workerData: { file, driver: require.resolve('better-sqlite3'), pragmas: DURABLE_WAL_PRAGMAS, walLimitBytes: DEFAULT_WAL_LIMIT_BYTES },
    });
    this.thread.unref();
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    let ready!: (pragmas: { journalMode: string; synchronous: number }) => void;
    this.pragmas = new Promise((resolve) => (ready = resolve));
    this.thread.on('message', (reply: ThreadReply) => {
      if (reply.kind === 'ready') return ready({ journalMode: reply.journalMode, synchronous: reply.synchronous });
      const waiting = this.waiting.shift()!;
      if (this.waiting.length === 0) this.thread.unref();
      if (reply.kind === 'committed') waiting.resolve(reply.outcomes);
      else waiting.reject(new SqliteAppendError(reply.error.message, reply.error.code));
    });
    this.thread.on('error', (error) => this.fail(new Error(`the event store's writer thread failed: ${error.message}`, { cause: error })));
    this.thread.on('exit', (code) => this.stopping || this.fail(new Error(`the event store's writer thread exited (code ${code})`)));
  }

  commit(group: AppendRequest[]): Promise<AppendOutcome[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.thread.ref(); // a group in the thread keeps the process alive
      this.thread.postMessage(group);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.thread.ref(); // keep the process alive until the thread has closed its connection
    this.thread.postMessage('stop');
    await this.exited;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.splice(0)) waiting.reject(error);
  }
}
