import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { AppendResult, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, RecordedEvent, Subscription, SubscriptionHandler } from '../event-store.port';
import { pollingSubscription } from './polling-subscription';
import { EventWriterThread, WRITER_THREAD_SENDING } from './event-writer-thread';
import { AT_TURN_END, EventGroupCommit } from './event-group-commit';
import { AppendRequest, groupAppender } from './group-appender';
import { RecentEvents } from './recent-events';
import { KnownHead } from './known-head';
import { WalCheckpointer } from '../../sqlite/wal-checkpointer';
import { CommitSignal, watchCommitSignal } from '../../sqlite/commit-signal';
import { useDurableWal } from '../../sqlite/durable-wal';
import { onOtherConnectionsCommits } from '../../sqlite/data-version-watch';

/**
 * How often the store asks SQLite whether another connection committed (PRAGMA data_version, no I/O), for
 * writers that do not signal their commits (an older version of the service, a tool): one cheap check for
 * the whole process instead of a read of the log per subscriber.
 */
const DATA_VERSION_CHECK_MS = 25;

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

export interface SqliteEventStoreOptions {
  /**
   * How often a subscription reads the log when nothing woke it (ms, default 1,000): a last resort only.
   * This process's appends wake subscribers directly; other connections' commits through the commit signal
   * and, for a writer that does not signal, the store's own data_version check every 25 ms.
   */
  pollIntervalMs?: number;
  /**
   * Where appends are committed (default: on the event loop). 'writer-thread': a thread of the store's own
   * waits for each group's fsync, so the event loop serves requests meanwhile (the api process); on the
   * event loop, a process manager's chained commands commit without yielding (the worker; see
   * docs/decisions.md, "The event store commits on a writer thread").
   */
  commitOn?: 'event-loop' | 'writer-thread';
}

/**
 * Embedded event store: one SQLite file in WAL mode. Appends run in BEGIN IMMEDIATE transactions, so
 * writers from several processes are serialised and positions are assigned in commit order.
 */
export class SqliteEventStore implements EventStore {
  /** `position` is the rowid: one writer, a rolled-back append's AUTOINCREMENT rolls back with it. */
  readonly contiguousPositions = true;
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private readonly recent = new RecentEvents(RECENT_EVENTS_CACHED);
  /** Set once subscriptions run: only then is every commit told of (see KnownHead). */
  private knownHead: KnownHead | null = null;
  private readonly statements;
  private readonly pollIntervalMs: number;
  private readonly writer: EventWriterThread | null;
  private readonly appends: EventGroupCommit;

  private stopWatching: (() => void) | null = null;
  private stopCheckingDataVersion: (() => void) | null = null;
  private readonly checkpointer: WalCheckpointer;
  private readonly commits: CommitSignal;

  constructor(
    private readonly file: string,
    options: SqliteEventStoreOptions = {},
  ) {
    this.db = new Database(file);
    useDurableWal(this.db);
    this.db.exec(EVENTS_SCHEMA);
    this.checkpointer = new WalCheckpointer(this.db, file);
    this.appended.setMaxListeners(0);
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.statements = {
      readStream: this.db.prepare<[string, number, number], EventRow>('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?'),
      readAll: this.db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: this.db.prepare<[], { position: number | null }>('SELECT MAX(position) AS position FROM events'),
    };
    this.writer = options.commitOn === 'writer-thread' ? new EventWriterThread(file) : null;
    const commit = this.writer ? (group: AppendRequest[]) => this.writer!.commit(group) : groupAppender(this.db);
    this.commits = new CommitSignal(file);
    this.appends = new EventGroupCommit(
      commit,
      () => {
        this.appended.emit('append');
        this.commits.signal();
      },
      this.writer ? WRITER_THREAD_SENDING : AT_TURN_END,
    );
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return this.appends.append(streamId, events, expected);
  }

  /** The journal mode and synchronous level of the connection that commits the appends (the durability they get). */
  async writerPragmas(): Promise<{ journalMode: string; synchronous: number }> {
    if (this.writer) return this.writer.pragmas;
    return { journalMode: String(this.db.pragma('journal_mode', { simple: true })), synchronous: Number(this.db.pragma('synchronous', { simple: true })) };
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
    const knownHead = this.knownHead;
    if (knownHead?.nothingAfter(after)) return [];
    const start = knownHead?.readStart();
    const events = this.recent.remember(this.statements.readAll.all(after, maxCount).map(toRecorded));
    if (start && events.length < maxCount) knownHead?.reachedEnd(events.at(-1)?.position ?? after, start);
    return events;
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
    this.stopWatching ??= watchCommitSignal(this.file, () => this.appended.emit('append'));
    this.stopCheckingDataVersion ??= onOtherConnectionsCommits(this.db, DATA_VERSION_CHECK_MS, () => this.appended.emit('append'));
    if (!this.knownHead) {
      const knownHead = new KnownHead(this.pollIntervalMs);
      // Registered before any subscriber's wake-up, so a woken subscriber's read already counts this commit.
      this.appended.prependListener('append', () => knownHead.commitToldOf());
      this.knownHead = knownHead;
    }
    return pollingSubscription({
      after,
      handler,
      readBatch: (from) => this.readAll({ after: from ?? 0, maxCount: 500 }),
      pollIntervalMs: this.pollIntervalMs,
      wakeUp: this.appended,
    });
  }

  async close(): Promise<void> {
    await this.appends.drain();
    await this.writer?.stop();
    this.stopWatching?.();
    this.stopCheckingDataVersion?.();
    await this.checkpointer.stop();
    this.commits.close();
    this.db.close();
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
