import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { AppendResult, ConcurrencyError, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, RecordedEvent, Subscription, SubscriptionHandler } from '../event-store.port';
import { pollingSubscription } from './polling-subscription';
import { RecentEvents } from './recent-events';
import { WalCheckpointer } from '../../sqlite/wal-checkpointer';
import { watchSqliteFile } from '../../sqlite/watch-sqlite-file';
import { useDurableWal } from '../../sqlite/durable-wal';

/** Enough for every subscriber of a busy process to find the batch the first one read. */
const RECENT_EVENTS_CACHED = 8192;

interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
  outcome: { result: AppendResult } | { error: unknown } | null;
}

export const EVENTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position  INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id TEXT    NOT NULL,
  revision  INTEGER NOT NULL,
  event_id  TEXT    NOT NULL UNIQUE,
  type      TEXT    NOT NULL,
  data      TEXT    NOT NULL,
  metadata  TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
);`;

/**
 * Embedded event store: one SQLite file in WAL mode. Appends run in BEGIN IMMEDIATE transactions, so
 * writers from several processes are serialised and positions are assigned in commit order.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private readonly recent = new RecentEvents(RECENT_EVENTS_CACHED);
  private readonly statements;
  private readonly commitGroup: (group: PendingAppend[]) => void;
  private pending: PendingAppend[] = [];

  private stopWatching: (() => void) | null = null;
  private readonly checkpointer: WalCheckpointer;

  constructor(
    private readonly file: string,
    private readonly pollIntervalMs = 25,
  ) {
    this.db = new Database(file);
    useDurableWal(this.db);
    this.db.exec(EVENTS_SCHEMA);
    this.checkpointer = new WalCheckpointer(this.db, file);
    this.appended.setMaxListeners(0);
    this.statements = {
      streamHead: this.db.prepare<[string], { revision: number }>('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1'),
      byEventId: this.db.prepare<[string], { stream_id: string; revision: number; position: number }>('SELECT stream_id, revision, position FROM events WHERE event_id = ?'),
      insert: this.db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
      readStream: this.db.prepare<[string, number, number], EventRow>('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?'),
      readAll: this.db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: this.db.prepare<[], { position: number | null }>('SELECT MAX(position) AS position FROM events'),
    };
    // Each append runs in a savepoint of the group's transaction: one that fails its revision check
    // leaves no row behind and does not touch the others.
    const appendOne = this.db.transaction((append: PendingAppend) => this.appendInTransaction(append.streamId, append.events, append.expected));
    const group = this.db.transaction((appends: PendingAppend[]) => {
      for (const append of appends) {
        try {
          append.outcome = { result: appendOne(append) };
        } catch (error) {
          // SQLite rolled the whole transaction back (disk full, I/O error): nothing of the group stands.
          if (!this.db.inTransaction) throw error;
          append.outcome = { error };
        }
      }
    });
    this.commitGroup = (appends) => group.immediate(appends);
  }

  /**
   * Group commit: appends share one transaction; each resolves only once that commit is durable. Appends
   * requested by the code a commit resumed (the next command of a process manager's batch, usually)
   * commit as soon as the current microtasks have run; the others (concurrent requests, each arriving in
   * a turn of its own) wait for the next turn of the event loop, so one commit takes them all. Under
   * settlement load a turn of the worker's loop took milliseconds and a process manager's commands on one
   * Split run one after another: waiting a turn per command held each batch up for ten turns and more,
   * and split_settlement fell 30,000 events behind. The price: a batch's commands now run to its end
   * without yielding the loop (the other subscribers of the process wait that long). Letting the loop
   * turn after 5 to 250 ms of chained commits left the process manager 9,000 to 28,000 events behind
   * again (issue 13).
   */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise((resolve, reject) => {
      this.pending.push({ streamId, events, expected, resolve, reject, outcome: null });
      if (this.pending.length > 1) return;
      if (this.resuming) process.nextTick(() => this.flushAppends());
      else setImmediate(() => this.flushAppends());
    });
  }

  /** True while the code that awaited the last commit runs (until its microtasks are all done). */
  private resuming = false;
  private commits = 0;

  private flushAppends(): void {
    const appends = this.pending;
    this.pending = [];
    if (appends.length === 0) return;
    try {
      this.commitGroup(appends);
    } catch (error) {
      for (const append of appends) append.reject(error);
      return;
    }
    for (const append of appends) {
      const outcome = append.outcome!;
      if ('result' in outcome) append.resolve(outcome.result);
      else append.reject(outcome.error);
    }
    // Ticks run before microtasks: a tick queued from a microtask runs once all of them have run (unless
    // a later commit, requested by them, ran first and keeps the window open for its own).
    const commit = ++this.commits;
    this.resuming = true;
    queueMicrotask(() => process.nextTick(() => this.commits === commit && (this.resuming = false)));
    this.appended.emit('append');
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const rows = this.statements.readStream.all(streamId, options.fromRevision ?? 0, options.maxCount ?? -1);
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0;
    const maxCount = options.maxCount ?? 1000;
    if (options.streamPrefixes) return this.readAllOf(options.streamPrefixes, after, maxCount);
    const cached = this.recent.runAfter(after, maxCount);
    if (cached.length > 0) return cached;
    return this.recent.remember(this.statements.readAll.all(after, maxCount).map(toRecorded));
  }

  private readonly prefixedReads = new Map<number, Database.Statement<unknown[], EventTuple>>();

  /**
   * Only the events of streams with the given prefixes: the others are skipped inside SQLite, never
   * parsed (a rebuild of a projection that reads 1 event in 20 spent most of its time parsing the 19).
   * Not kept in the recent-events cache, which serves live subscribers reading everything.
   */
  private readAllOf(prefixes: readonly string[], after: number, maxCount: number): RecordedEvent[] {
    if (prefixes.length === 0) return [];
    let statement = this.prefixedReads.get(prefixes.length);
    if (!statement) {
      statement = this.db.prepare<unknown[], EventTuple>(prefixedReadSql(prefixes.length)).raw(true);
      this.prefixedReads.set(prefixes.length, statement);
    }
    const bounds = prefixes.flatMap((prefix) => [prefix, prefixUpperBound(prefix)]);
    return statement.all(after, ...bounds, maxCount).map(tupleToRecorded);
  }

  async headPosition(): Promise<number | null> {
    return this.statements.head.get()?.position ?? null;
  }

  subscribeToAll(after: number | null, handler: SubscriptionHandler): Subscription {
    // Appends by other processes (an API beside a worker) wake subscribers at once instead of at the next poll.
    this.stopWatching ??= watchSqliteFile(this.file, () => this.appended.emit('append'));
    return pollingSubscription({
      after,
      handler,
      readBatch: (from) => this.readAll({ after: from ?? 0, maxCount: 500 }),
      pollIntervalMs: this.pollIntervalMs,
      wakeUp: this.appended,
    });
  }

  async close(): Promise<void> {
    this.flushAppends();
    this.stopWatching?.();
    await this.checkpointer.stop();
    this.db.close();
  }

  private appendInTransaction(streamId: string, events: NewEvent[], expected: ExpectedRevision): AppendResult {
    const replay = this.idempotentReplay(streamId, events);
    if (replay) return replay;
    const current = this.statements.streamHead.get(streamId)?.revision;
    assertExpected(streamId, expected, current);
    let revision = current ?? -1;
    let position = 0;
    for (const event of events) {
      revision += 1;
      const info = this.statements.insert.run(streamId, revision, event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata));
      position = Number(info.lastInsertRowid);
    }
    return { nextExpectedRevision: revision, position };
  }

  /** Re-appending events whose ids are already stored in this stream, in the same order, is a no-op. */
  private idempotentReplay(streamId: string, events: NewEvent[]): AppendResult | null {
    const stored = events.map((event) => this.statements.byEventId.get(event.id));
    if (stored.every((row) => row === undefined)) return null;
    const consistent = stored.every((row, index) => row && row.stream_id === streamId && row.revision === stored[0]!.revision + index);
    if (!consistent) {
      throw new ConcurrencyError(streamId, 'any', this.statements.streamHead.get(streamId)?.revision ?? 'no_stream');
    }
    const head = this.statements.streamHead.get(streamId)!.revision;
    return { nextExpectedRevision: head, position: stored[stored.length - 1]!.position };
  }
}

/**
 * The events after a position whose stream id has one of `prefixes` prefixes (two bounds each), in
 * position order: a walk up the position (rowid) range, each row's stream id checked on the way. The
 * unary `+` keeps SQLite off the (stream_id, revision) index: for one prefix it chose that index, which
 * finds every remaining event of the prefix and sorts them all by position to return the first batch,
 * so each batch of a rebuild cost as much as the rest of the log (creator_splits, one prefix, spent 27 s
 * of its 30 s rebuild in that query; a walk over the whole log takes 2 s).
 */
export function prefixedReadSql(prefixes: number): string {
  const ranges = Array.from({ length: prefixes }, () => '(+stream_id >= ? AND +stream_id < ?)').join(' OR ');
  return `SELECT ${TUPLE_COLUMNS} FROM events WHERE position > ? AND (${ranges}) ORDER BY position LIMIT ?`;
}

/** The least string above every string that starts with `prefix` (SQLite compares TEXT bytewise). */
function prefixUpperBound(prefix: string): string {
  if (prefix === '') return '\u{10ffff}';
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

function assertExpected(streamId: string, expected: ExpectedRevision, current: number | undefined): void {
  if (expected === 'any') return;
  if (expected === 'no_stream') {
    if (current !== undefined) throw new ConcurrencyError(streamId, expected, current);
    return;
  }
  if (current !== expected) throw new ConcurrencyError(streamId, expected, current ?? 'no_stream');
}

/**
 * A row as an array (better-sqlite3's raw mode), for reads of many rows: a rebuild of the splits read model
 * reads 925,000, and an array per row, instead of an object keyed by column name, cut the reading's CPU
 * time by a sixth (npm run bench -- rebuild).
 */
type EventTuple = [position: number, streamId: string, revision: number, eventId: string, type: string, data: string, metadata: string];
const TUPLE_COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';

/** Indexed, not destructured: destructuring an array runs its iterator. */
function tupleToRecorded(row: EventTuple): RecordedEvent {
  return {
    id: row[3],
    type: row[4],
    data: JSON.parse(row[5]) as Record<string, unknown>,
    metadata: JSON.parse(row[6]) as RecordedEvent['metadata'],
    streamId: row[1],
    revision: row[2],
    position: row[0],
  };
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
    streamId: row.stream_id,
    revision: row.revision,
    position: row.position,
  };
}
