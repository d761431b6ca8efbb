import Database from 'better-sqlite3';
import {
  Bounds,
  CollectionSpec,
  CommitOutcome,
  Doc,
  BatchDocumentReader,
  DocumentReader,
  assertUniqueFieldsPresent,
  decisiveSort,
  Filter,
  FindOptions,
  ProjectionCommit,
  ProjectionState,
  Range,
  isStale,
} from '../document-store.port';
import { ReadStore } from '../read-store.port';
import { NewTimer, Timer, TimerCount, TimerStatus } from '../timer-store.port';
import { assertIdentifier } from '../identifier';
import { WalCheckpointer } from '../../sqlite/wal-checkpointer';
import { WalSync } from '../../sqlite/wal-sync';
import { CommitSignal, watchCommitSignal } from '../../sqlite/commit-signal';
import { useDurableWal } from '../../sqlite/durable-wal';
import { ReadMostlyDocuments } from './read-mostly-documents';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS projections (
  name TEXT PRIMARY KEY, active_generation INTEGER NOT NULL, status TEXT NOT NULL, error TEXT);
CREATE TABLE IF NOT EXISTS projection_generations (
  name TEXT NOT NULL, generation INTEGER NOT NULL, checkpoint INTEGER, retired INTEGER NOT NULL DEFAULT 0, version INTEGER,
  PRIMARY KEY (name, generation));
CREATE TABLE IF NOT EXISTS projection_collections (
  collection TEXT PRIMARY KEY, projection TEXT NOT NULL, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS projection_stream_revisions (
  name TEXT NOT NULL, generation INTEGER NOT NULL, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
  PRIMARY KEY (name, generation, stream_id));
CREATE TABLE IF NOT EXISTS operational (
  collection TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (collection, id));
CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS timers (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, due_at TEXT NOT NULL, payload TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'scheduled',
  lease_owner TEXT, lease_until_ms INTEGER, last_error TEXT);
CREATE INDEX IF NOT EXISTS timers_due ON timers (status, due_at);`;

/** Columns added after the first release: added to an existing file at start. */
const TIMER_COLUMNS_ADDED = [{ name: 'done_at_ms', type: 'INTEGER' }];
/** The projection version a generation was built with; NULL (a file from before versions) counts as 1. */
const GENERATION_COLUMNS_ADDED = [{ name: 'version', type: 'INTEGER' }];

interface PendingCommit {
  commit: ProjectionCommit;
  resolve: (outcome: CommitOutcome) => void;
  reject: (error: unknown) => void;
  outcome: { result: CommitOutcome } | { error: unknown } | null;
}

interface StateRow {
  name: string;
  active_generation: number;
  status: 'running' | 'stalled';
  error: string | null;
  checkpoint: number | null;
  version: number | null;
}

interface TableWrites {
  put: Database.Statement<[string, string]>;
  delete: Database.Statement<[string]>;
}

interface GenerationRow {
  checkpoint: number | null;
  retired: number;
  version: number | null;
}

/** Read store in one SQLite file (WAL). Each projection collection is a table per generation. */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly checkpointer: WalCheckpointer;
  private readonly commits: CommitSignal;
  private readonly walSync: WalSync;

  constructor(private readonly file: string) {
    this.db = new Database(file);
    useDurableWal(this.db);
    this.db.exec(SCHEMA);
    this.migrate();
    this.checkpointer = new WalCheckpointer(this.db, file);
    this.commits = new CommitSignal(file);
    this.walSync = new WalSync(this.db, file);
    this.commitGroup = this.groupCommitter();
  }

  /**
   * A group runs first in one transaction without savepoints. A savepoint makes SQLite copy every page
   * a commit changes to a statement journal, a temporary file once it passes 64 KiB: under the mixed
   * bench that was ~100 files a second and as many bytes written to them as to the WAL (strace of the
   * worker, docs/decisions.md). A commit that throws rolls the whole group back, and the group runs
   * again with each commit in a savepoint of its own: that one leaves nothing behind and the others
   * stand. The event store's group appender has the same shape and busy check; it is sent to its writer
   * thread as source text, so the two cannot share a helper.
   */
  private groupCommitter(): (commits: PendingCommit[]) => void {
    const optimistically = this.db.transaction((commits: PendingCommit[]) => {
      for (const pending of commits) pending.outcome = { result: this.commitInTransaction(pending.commit) };
    });
    const commitOne = this.db.transaction((commit: ProjectionCommit) => this.commitInTransaction(commit));
    const carefully = this.db.transaction((commits: PendingCommit[]) => {
      for (const pending of commits) {
        try {
          pending.outcome = { result: commitOne(pending.commit) };
        } catch (error) {
          // SQLite rolled the whole transaction back (disk full, I/O error): nothing of the group stands.
          if (!this.db.inTransaction) throw error;
          pending.outcome = { error };
        }
      }
    });
    return (commits) => {
      try {
        optimistically.immediate(commits);
      } catch (error) {
        // A busy write lock (busy_timeout ran out) is not a commit that threw: the group never began.
        if (String((error as { code?: string }).code).startsWith('SQLITE_BUSY')) throw error;
        carefully.immediate(commits);
      }
    };
  }

  async registerProjection(projection: string, collections: CollectionSpec[], version = 1): Promise<void> {
    assertIdentifier(projection);
    this.immediate(() => {
      for (const spec of collections) {
        assertIdentifier(spec.name);
        const owner = this.statement<[string], { projection: string }>('SELECT projection FROM projection_collections WHERE collection = ?').get(spec.name);
        if (owner && owner.projection !== projection) {
          throw new Error(`Collection ${spec.name} already belongs to projection ${owner.projection}`);
        }
        this.statement('INSERT INTO projection_collections (collection, projection, spec) VALUES (?, ?, ?) ON CONFLICT (collection) DO UPDATE SET spec = excluded.spec').run(
          spec.name,
          projection,
          JSON.stringify(spec),
        );
      }
      const existing = this.statement('SELECT 1 FROM projections WHERE name = ?').get(projection);
      if (!existing) {
        this.statement("INSERT INTO projections (name, active_generation, status) VALUES (?, 1, 'running')").run(projection);
        this.statement('INSERT INTO projection_generations (name, generation, version) VALUES (?, 1, ?)').run(projection, version);
      }
      // A shadow (a rebuild under way, maybe in another process) gets its indexes when it is activated.
      const { active_generation } = this.statement<[string], { active_generation: number }>('SELECT active_generation FROM projections WHERE name = ?').get(projection)!;
      for (const generation of this.liveGenerations(projection)) this.createTables(projection, generation, { indexes: generation === active_generation });
    });
    this.specs.clear();
    this.uniqueFields.clear();
  }

  async projectionState(projection: string): Promise<ProjectionState> {
    const [state] = await this.projectionStates([projection]);
    return state!;
  }

  generationReader(projection: string, generation: number): DocumentReader {
    return this.readerFor((collection) => this.tableOf(collection, projection, generation));
  }

  async checkpointOf(projection: string, generation: number): Promise<number | null> {
    return this.generationRow(projection, generation)?.checkpoint ?? null;
  }

  async streamRevisionOf(projection: string, generation: number, streamId: string): Promise<number | null> {
    const row = this.statement<[string, number, string], { revision: number }>(
      'SELECT revision FROM projection_stream_revisions WHERE name = ? AND generation = ? AND stream_id = ?',
    ).get(projection, generation, streamId);
    return row?.revision ?? null;
  }

  /**
   * Group commit (issue 31): the commits requested in one turn of the event loop, by every projection and
   * process manager of this process, share one transaction and so one fsync. Each resolves only once that
   * transaction is durable; its documents, stream revisions, timers and checkpoint stay in one atomic
   * unit (a savepoint of the group). With synchronous = FULL each subscriber's commit was an fsync of its
   * own that blocked the worker's only thread: 40% of the worker under settlement load (see
   * docs/operations.md, Capacity). The group's fsync now runs off the event loop (WalSync): the commit
   * is made with `synchronous = NORMAL` and acknowledged once the WAL is fsynced, so the worker applies
   * the next batch meanwhile (the commits were 28% of its thread in a profile under settlement load with
   * other work on the machine; on a quiet one the settlement bench did not move). Other connections
   * may read the group's documents before that fsync returns; a power loss then takes the read model
   * back to an earlier checkpoint, and it is applied again from the durable log, to the same documents.
   * A rebuild's shadow batches (`shadow`) are acknowledged at once, with no fsync of their own.
   */
  commitProjection(commit: ProjectionCommit): Promise<CommitOutcome> {
    return new Promise((resolve, reject) => {
      this.pendingCommits.push({ commit, resolve, reject, outcome: null });
      if (this.pendingCommits.length === 1) setImmediate(() => this.flushCommits());
    });
  }

  private pendingCommits: PendingCommit[] = [];
  /** The fsync of the last group that held a commit other than a shadow's (ProjectionCommit.beforeDisk). */
  private lastSync: Promise<void> = Promise.resolve();

  synced(): Promise<void> {
    return this.lastSync;
  }

  /** Projection commits made and the transactions (fsyncs) that carried them, since the store opened. */
  readonly commitStats = { commits: 0, transactions: 0 };
  private readonly commitGroup: (commits: PendingCommit[]) => void;

  private flushCommits(): void {
    const commits = this.pendingCommits;
    this.pendingCommits = [];
    if (commits.length === 0) return;
    this.commitStats.commits += commits.length;
    this.commitStats.transactions += 1;
    this.stamps = null;
    try {
      this.walSync.unsynced(() => this.commitGroup(commits));
    } catch (error) {
      for (const pending of commits) pending.reject(error);
      return;
    }
    this.commits.signal();
    const [early, durable] = partition(commits, (pending) => pending.commit.shadow === true || pending.commit.beforeDisk === true);
    // A shadow's batches reach the disk with its activation's fsync; every other commit is synced now, answered or not.
    if (commits.some((pending) => pending.commit.shadow !== true)) this.lastSync = this.walSync.sync();
    settleCommits(early);
    if (durable.length === 0) return;
    this.lastSync.then(
      () => settleCommits(durable),
      (error: unknown) => {
        for (const pending of durable) pending.reject(new Error(`the read store's commit was made but could not be fsynced: ${String(error)}`));
      },
    );
  }

  private commitInTransaction(commit: ProjectionCommit): CommitOutcome {
    const generation = this.generationRow(commit.projection, commit.generation);
    if (!generation || generation.retired) return 'retired';
    if (isStale(generation.checkpoint, commit)) return 'stale';
    for (const write of commit.writes) {
      const table = this.writesTo(write.collection, commit.projection, commit.generation);
      if (write.kind === 'put') {
        const unique = this.uniqueFieldsOf(write.collection);
        if (unique.size > 0) assertUniqueFieldsPresent(write.collection, write.doc, unique);
        table.put.run(write.doc.id, JSON.stringify(write.doc));
      } else {
        table.delete.run(write.id);
      }
    }
    const upsertRevision = this.statement(
      'INSERT INTO projection_stream_revisions (name, generation, stream_id, revision) VALUES (?, ?, ?, ?) ON CONFLICT (name, generation, stream_id) DO UPDATE SET revision = excluded.revision',
    );
    for (const [streamId, revision] of Object.entries(commit.streamRevisions)) {
      upsertRevision.run(commit.projection, commit.generation, streamId, revision);
    }
    this.statement('UPDATE projection_generations SET checkpoint = ? WHERE name = ? AND generation = ?').run(commit.checkpoint, commit.projection, commit.generation);
    for (const timer of commit.timers ?? []) this.insertTimer(timer);
    return 'committed';
  }

  /**
   * The put and delete statements of a collection's table in a generation, looked up once per table: a
   * ledger rebuild commits a million documents, and building each one's SQL text to look its statement
   * up by (the `statement` lookup alone: 0.6 s self in that rebuild's profile) is per document.
   */
  private writesTo(collection: string, projection: string, generation: number): TableWrites {
    let byCollection = this.tableWrites.get(projection)?.get(generation);
    if (!byCollection) {
      byCollection = new Map();
      const byGeneration = this.tableWrites.get(projection) ?? new Map<number, Map<string, TableWrites>>();
      byGeneration.set(generation, byCollection);
      this.tableWrites.set(projection, byGeneration);
    }
    let statements = byCollection.get(collection);
    if (!statements) {
      const table = this.tableOf(collection, projection, generation);
      statements = {
        put: this.db.prepare(`INSERT INTO ${table} (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body`),
        delete: this.db.prepare(`DELETE FROM ${table} WHERE id = ?`),
      };
      byCollection.set(collection, statements);
    }
    return statements;
  }

  /** By projection, generation and collection (nested maps: no key text to build per document). */
  private readonly tableWrites = new Map<string, Map<number, Map<string, TableWrites>>>();

  /**
   * A shadow's tables get their plain secondary indexes when it is activated, not now (its unique ones
   * at once): nothing queries a shadow by them while it is rebuilt (apply reads documents by id), and one
   * sorted CREATE INDEX over the loaded table is cheaper than keeping the index in step row by row. The ledger's lines, inserted
   * owner- and account-first into three such indexes, dirtied pages all over them on every commit
   * (rebuild CPU 40.5 -> 32.6 s with the build included: docs/decisions.md, issue 31 ledger rebuild).
   */
  async createShadowGeneration(projection: string, version = 1): Promise<number> {
    return this.immediate(() => {
      const { next } = this.statement<[string], { next: number }>('SELECT MAX(generation) + 1 AS next FROM projection_generations WHERE name = ?').get(projection)!;
      this.statement('INSERT INTO projection_generations (name, generation, version) VALUES (?, ?, ?)').run(projection, next, version);
      this.createTables(projection, next, { indexes: false });
      return next;
    });
  }

  /**
   * Builds the generation's secondary indexes (a shadow has none yet), then swaps it in. One transaction
   * per index: another process's commits to this file (the service's, while the CLI rebuilds) wait for one
   * index build at a time (about a second for the ledger's biggest on the bench's log), not for all of
   * them, so they stay well inside their busy timeout. Stopped half way, the shadow is discarded by the
   * next rebuild like any other.
   */
  async activateGeneration(projection: string, generation: number): Promise<void> {
    for (const build of this.indexBuildsOf(projection, generation)) this.immediate(build);
    this.immediate(() => {
      const previous = this.statement<[string], { active_generation: number }>('SELECT active_generation FROM projections WHERE name = ?').get(projection)!.active_generation;
      this.statement("UPDATE projections SET active_generation = ?, status = 'running', error = NULL WHERE name = ?").run(generation, projection);
      this.activeGenerations.clear();
      for (const old of this.liveGenerations(projection).filter((g) => g !== generation && g <= previous)) this.retire(projection, old);
    });
  }

  async discardShadowGenerations(projection: string): Promise<number[]> {
    return this.immediate(() => {
      const { active_generation } = this.statement<[string], { active_generation: number }>('SELECT active_generation FROM projections WHERE name = ?').get(projection)!;
      const shadows = this.liveGenerations(projection).filter((g) => g !== active_generation);
      for (const shadow of shadows) this.retire(projection, shadow);
      return shadows;
    });
  }

  private retire(projection: string, generation: number): void {
    this.statement('UPDATE projection_generations SET retired = 1 WHERE name = ? AND generation = ?').run(projection, generation);
    this.statement('DELETE FROM projection_stream_revisions WHERE name = ? AND generation = ?').run(projection, generation);
    for (const collection of this.collectionsOf(projection)) {
      this.db.exec(`DROP TABLE IF EXISTS ${physicalTable(collection.name, generation)}`);
    }
  }

  async setProjectionError(projection: string, error: string | null): Promise<void> {
    this.statement('UPDATE projections SET status = ?, error = ? WHERE name = ?').run(error === null ? 'running' : 'stalled', error, projection);
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    if (!this.isReadMostly(collection)) return this.active.get<T>(collection, id);
    return this.readMostlyDocuments<T>(collection, [id])[0]!;
  }

  async getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<(T | null)[]> {
    if (!this.isReadMostly(collection) || ids.length > GET_MANY_CHUNK) return this.active.getMany<T>(collection, ids);
    return this.readMostlyDocuments<T>(collection, ids);
  }

  private readonly readMostly = new ReadMostlyDocuments();
  /** Each projection's active generation and checkpoint, read once per event-loop turn for the read-mostly cache. */
  private stamps: Map<string, { generation: number; checkpoint: number | null }> | null = null;

  private isReadMostly(collection: string): boolean {
    return this.specOf(collection)?.readMostly === true;
  }

  /**
   * get/getMany of a read-mostly collection: the bodies stored at the projection's checkpoint of this turn
   * are answered from memory, the others read in one statement and remembered (ReadMostlyDocuments).
   */
  private readMostlyDocuments<T extends Doc>(collection: string, ids: readonly string[]): (T | null)[] {
    return this.readingRetiredGenerationOnce(() => {
      const owner = this.ownerOf(collection);
      const generation = this.activeGeneration(owner);
      const table = physicalTable(collection, generation);
      const stamp = this.stampThisTurn(owner);
      // The turn's stamp names another generation (a swap since): read without the cache.
      const cached = stamp?.generation === generation;
      const bodies = ids.map((id) => (cached ? this.readMostly.lookup(table, id, stamp.checkpoint) : undefined));
      const missing = ids.filter((_, index) => bodies[index] === undefined);
      if (missing.length > 0) {
        const read = this.bodiesById(table, missing);
        ids.forEach((id, index) => {
          if (bodies[index] !== undefined) return;
          const body = read.get(id) ?? null;
          bodies[index] = body;
          if (cached) this.readMostly.remember(table, id, stamp.checkpoint, body);
        });
      }
      return bodies.map((body) => (body == null ? null : (JSON.parse(body) as T)));
    });
  }

  /** The stored JSON of the documents with these ids (at most GET_MANY_CHUNK) that exist, by id. */
  private bodiesById(table: string, ids: readonly string[]): Map<string, string> {
    // A placeholder per id (a statement per list length, cached): cheaper than expanding json_each.
    const placeholders = ids.map(() => '?').join(', ');
    const rows = this.statement<string[], { id: string; body: string }>(`SELECT id, body FROM ${table} WHERE id IN (${placeholders})`).all(...ids);
    return new Map(rows.map((row) => [row.id, row.body]));
  }

  /**
   * Forgotten at the end of the turn, and as soon as this process commits or reads projection states:
   * read-your-writes learns from projectionStates that a write was applied, so a read after it must not
   * use a stamp from before.
   */
  private stampThisTurn(projection: string): { generation: number; checkpoint: number | null } | null {
    if (this.stamps === null) {
      const rows = this.statement<[], { name: string; active_generation: number; checkpoint: number | null }>(
        'SELECT p.name, p.active_generation, g.checkpoint FROM projections p JOIN projection_generations g ON g.name = p.name AND g.generation = p.active_generation',
      ).all();
      const stamps = new Map(rows.map((row) => [row.name, { generation: row.active_generation, checkpoint: row.checkpoint }]));
      this.stamps = stamps;
      setImmediate(() => {
        if (this.stamps === stamps) this.stamps = null;
      });
    }
    return this.stamps.get(projection) ?? null;
  }

  async find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]> {
    return this.active.find<T>(collection, options);
  }

  async count(collection: string, filter?: Filter, range?: Range): Promise<number> {
    return this.active.count(collection, filter, range);
  }

  /**
   * Acknowledged once fsynced, like every write here, but the fsync runs off the event loop (WalSync): the
   * worker's outbox mail and the api's sessions, idempotency answers and sandbox charges no longer stall
   * the process for it. What another connection may read before the fsync returns, a power loss can take
   * back; every writer tolerates that (docs/decisions.md, "Operational writes fsync off the event loop").
   */
  async putOperational<T extends Doc>(collection: string, doc: T): Promise<void> {
    this.walSync.unsynced(() => this.writeOperational(collection, doc));
    await this.walSync.sync();
  }

  async getOperational<T extends Doc>(collection: string, id: string): Promise<T | null> {
    return this.readOperational<T>(collection, id);
  }

  private writeOperational<T extends Doc>(collection: string, doc: T): void {
    this.statement('INSERT INTO operational (collection, id, body) VALUES (?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body').run(
      collection,
      doc.id,
      JSON.stringify(doc),
    );
  }

  private readOperational<T extends Doc>(collection: string, id: string): T | null {
    const row = this.statement<[string, string], { body: string }>('SELECT body FROM operational WHERE collection = ? AND id = ?').get(collection, id);
    return row ? (JSON.parse(row.body) as T) : null;
  }

  async deleteOperational(collection: string, id: string): Promise<boolean> {
    return this.statement('DELETE FROM operational WHERE collection = ? AND id = ?').run(collection, id).changes > 0;
  }

  async listOperational<T extends Doc>(collection: string, limit: number): Promise<T[]> {
    return this.statement<[string, number], { body: string }>('SELECT body FROM operational WHERE collection = ? ORDER BY id LIMIT ?')
      .all(collection, limit)
      .map((row) => JSON.parse(row.body) as T);
  }

  async purgeExpiredOperational(collection: string, expiredAt: string, limit: number): Promise<number> {
    return this.statement("DELETE FROM operational WHERE rowid IN (SELECT rowid FROM operational WHERE collection = ? AND json_extract(body, '$.expiresAt') <= ? LIMIT ?)").run(
      collection,
      expiredAt,
      limit,
    ).changes;
  }

  async useAllowance(collection: string, id: string, allowance: number, now: string, windowEndsAt: string): Promise<boolean> {
    return this.immediate(() => {
      const window = this.readOperational<{ id: string; used: number; expiresAt: string }>(collection, id);
      const live = window !== null && window.expiresAt > now;
      if (live && window.used >= allowance) return false;
      this.writeOperational(collection, live ? { ...window, used: window.used + 1 } : { id, used: 1, expiresAt: windowEndsAt });
      return true;
    });
  }

  async claimOperational<T extends Doc>(collection: string, doc: T, now: string): Promise<T | null> {
    return this.immediate(() => {
      const existing = this.readOperational<T & { expiresAt?: string }>(collection, doc.id);
      if (existing !== null && (existing.expiresAt === undefined || existing.expiresAt > now)) return existing;
      this.writeOperational(collection, doc);
      return null;
    });
  }

  async returnAllowance(collection: string, id: string, now: string): Promise<void> {
    this.immediate(() => {
      const window = this.readOperational<{ id: string; used: number; expiresAt: string }>(collection, id);
      if (window !== null && window.expiresAt > now && window.used > 0) this.writeOperational(collection, { ...window, used: window.used - 1 });
    });
  }

  async tryAcquireLease(name: string, owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const result = this.statement(
      `INSERT INTO leases (name, owner, expires_at_ms) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at_ms = excluded.expires_at_ms
         WHERE leases.owner = excluded.owner OR leases.expires_at_ms <= ?`,
    ).run(name, owner, nowMs + ttlMs, nowMs);
    return result.changes === 1;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    this.statement('DELETE FROM leases WHERE name = ? AND owner = ?').run(name, owner);
  }

  async scheduleTimer(timer: NewTimer): Promise<void> {
    this.insertTimer(timer);
  }

  private insertTimer(timer: NewTimer): void {
    this.statement('INSERT INTO timers (id, kind, due_at, payload) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(
      timer.id,
      timer.kind,
      timer.dueAt,
      JSON.stringify(timer.payload),
    );
  }

  async claimDueTimers(now: string, owner: string, nowMs: number, leaseMs: number, limit: number): Promise<Timer[]> {
    return this.immediate(() => {
      const rows = this.statement<[string, number, number], { id: string; kind: string; due_at: string; payload: string; attempts: number }>(
        `SELECT id, kind, due_at, payload, attempts FROM timers
           WHERE status = 'scheduled' AND due_at <= ? AND (lease_until_ms IS NULL OR lease_until_ms <= ?)
           ORDER BY due_at, id LIMIT ?`,
      ).all(now, nowMs, limit);
      const claim = this.statement('UPDATE timers SET lease_owner = ?, lease_until_ms = ? WHERE id = ?');
      for (const row of rows) claim.run(owner, nowMs + leaseMs, row.id);
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        dueAt: row.due_at,
        payload: JSON.parse(row.payload) as Record<string, unknown>,
        attempts: row.attempts,
      }));
    });
  }

  async completeTimer(id: string, owner: string, doneAtMs: number): Promise<void> {
    this.statement("UPDATE timers SET status = 'done', done_at_ms = ?, attempts = attempts + 1, lease_owner = NULL, lease_until_ms = NULL WHERE id = ? AND lease_owner = ?").run(
      doneAtMs,
      id,
      owner,
    );
  }

  async retryTimer(id: string, owner: string, dueAt: string, error: string): Promise<void> {
    this.statement('UPDATE timers SET due_at = ?, attempts = attempts + 1, last_error = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ? AND lease_owner = ?').run(
      dueAt,
      error,
      id,
      owner,
    );
  }

  async parkTimer(id: string, owner: string, error: string): Promise<void> {
    this.statement("UPDATE timers SET status = 'parked', attempts = attempts + 1, last_error = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ? AND lease_owner = ?").run(
      error,
      id,
      owner,
    );
  }

  async timerStatus(id: string): Promise<{ status: TimerStatus; attempts: number; lastError: string | null } | null> {
    const row = this.statement<[string], { status: TimerStatus; attempts: number; last_error: string | null }>('SELECT status, attempts, last_error FROM timers WHERE id = ?').get(
      id,
    );
    return row ? { status: row.status, attempts: row.attempts, lastError: row.last_error } : null;
  }

  async purgeDoneTimers(doneBeforeMs: number, limit: number): Promise<number> {
    return this.statement("DELETE FROM timers WHERE id IN (SELECT id FROM timers WHERE status = 'done' AND done_at_ms < ? LIMIT ?)").run(doneBeforeMs, limit).changes;
  }

  async timerCounts(): Promise<TimerCount[]> {
    return this.statement<[], TimerCount>(
      "SELECT kind, status, COUNT(*) AS count FROM timers WHERE status IN ('scheduled', 'parked') GROUP BY kind, status ORDER BY kind, status",
    ).all();
  }

  async nextTimerDueAt(): Promise<string | null> {
    const row = this.statement<[], { due_at: string | null }>("SELECT MIN(due_at) AS due_at FROM timers WHERE status = 'scheduled'").get();
    return row?.due_at ?? null;
  }

  watchCommits(onCommit: () => void): () => void {
    return watchCommitSignal(this.file, onCommit);
  }

  async ping(): Promise<void> {
    this.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.flushCommits();
    await this.walSync.close();
    await this.checkpointer.stop();
    this.commits.close();
    this.db.close();
  }

  private migrate(): void {
    this.addColumns('timers', TIMER_COLUMNS_ADDED);
    this.addColumns('projection_generations', GENERATION_COLUMNS_ADDED);
    this.db.exec('CREATE INDEX IF NOT EXISTS timers_done ON timers (status, done_at_ms)');
  }

  private addColumns(table: string, added: { name: string; type: string }[]): void {
    const columns = new Set(
      this.db
        .prepare<[], { name: string }>(`PRAGMA table_info(${table})`)
        .all()
        .map((column) => column.name),
    );
    for (const column of added) {
      if (!columns.has(column.name)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column.name} ${column.type}`);
    }
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Prepared statements are cached by SQL text; table names vary by generation so they cannot be static. */
  private statement<P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared as unknown as Database.Statement<P, R>;
  }

  private immediate<R>(work: () => R): R {
    const result = this.db.transaction(work).immediate();
    this.commits.signal();
    return result;
  }

  /** Read-your-writes' check after each commit: every waited projection's state in one query (q31c). */
  async projectionStates(projections: readonly string[]): Promise<ProjectionState[]> {
    this.stamps = null;
    const rows = this.statement<[string], StateRow>(
      `SELECT p.name, p.active_generation, p.status, p.error, g.checkpoint, g.version FROM projections p
       LEFT JOIN projection_generations g ON g.name = p.name AND g.generation = p.active_generation
       WHERE p.name IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(projections));
    const byName = new Map(rows.map((row) => [row.name, row]));
    return projections.map((projection) => {
      const row = byName.get(projection);
      if (!row) throw new Error(`Unknown projection ${projection}`);
      return {
        projection,
        activeGeneration: row.active_generation,
        checkpoint: row.checkpoint ?? null,
        version: row.version ?? 1,
        status: row.status,
        error: row.error,
      };
    });
  }

  /**
   * Each projection's active generation, read once and reused by every document read (it was a query per
   * read). Valid while nothing changed it: a swap by this connection clears it (activateGeneration), and a
   * commit by any other connection or process (a rebuild run by the CLI) moves PRAGMA data_version, which
   * is checked once per event-loop turn (a statement per read cost as much as the read itself). A swap by
   * another process inside the turn drops the table the cache names, so a read that finds its table gone
   * forgets the cache and runs once more (retire drops every generation up to the one it replaced: a
   * cached generation is either active or gone, never stale).
   */
  private readonly activeGenerations = new Map<string, number>();
  private activeGenerationsVersion = -1;
  private dataVersionStatement?: Database.Statement<[], number>;
  private dataVersionCheckedThisTurn = false;

  private activeGeneration(projection: string): number {
    if (!this.dataVersionCheckedThisTurn) this.checkDataVersion();
    let generation = this.activeGenerations.get(projection);
    if (generation === undefined) {
      generation = this.statement<[string], { active_generation: number }>('SELECT active_generation FROM projections WHERE name = ?').get(projection)!.active_generation;
      this.activeGenerations.set(projection, generation);
    }
    return generation;
  }

  private checkDataVersion(): void {
    this.dataVersionStatement ??= this.db.prepare<[], number>('PRAGMA data_version').pluck();
    const version = this.dataVersionStatement.get()!;
    if (version !== this.activeGenerationsVersion) {
      this.activeGenerations.clear();
      this.activeGenerationsVersion = version;
    }
    this.dataVersionCheckedThisTurn = true;
    setImmediate(() => (this.dataVersionCheckedThisTurn = false));
  }

  /** Reads the active generation of every projection (one reader, made once). */
  private readonly active: BatchDocumentReader = this.activeReader();

  private activeReader(): BatchDocumentReader {
    return this.readerFor(
      (collection) => physicalTable(collection, this.activeGeneration(this.ownerOf(collection))),
      (read) => this.readingRetiredGenerationOnce(read),
    );
  }

  /** Runs a read of the active generations; if another process retired the table it named, once more with fresh generations. */
  private readingRetiredGenerationOnce<R>(read: () => R): R {
    try {
      return read();
    } catch (error) {
      if (!isMissingTable(error)) throw error;
      this.activeGenerations.clear();
      this.activeGenerationsVersion = -1;
      return read();
    }
  }

  private readerFor(tableOf: (collection: string) => string, run: <R>(read: () => R) => R = (read) => read()): BatchDocumentReader {
    const statement = this.statement.bind(this);
    const uniqueFieldsOf = this.uniqueFieldsOf.bind(this);
    const bodiesById = this.bodiesById.bind(this);
    return {
      async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
        const row = run(() => statement<[string], { body: string }>(`SELECT body FROM ${tableOf(collection)} WHERE id = ?`).get(id));
        return row ? (JSON.parse(row.body) as T) : null;
      },
      async getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<(T | null)[]> {
        if (ids.length === 0) return [];
        if (ids.length > GET_MANY_CHUNK) {
          const chunks = await Promise.all(
            Array.from({ length: Math.ceil(ids.length / GET_MANY_CHUNK) }, (_, i) => this.getMany<T>(collection, ids.slice(i * GET_MANY_CHUNK, (i + 1) * GET_MANY_CHUNK))),
          );
          return chunks.flat();
        }
        const bodies = run(() => bodiesById(tableOf(collection), ids));
        return ids.map((id) => {
          const body = bodies.get(id);
          return body === undefined ? null : (JSON.parse(body) as T);
        });
      },
      async find<T extends Doc>(collection: string, options: FindOptions = {}): Promise<T[]> {
        // No id tiebreak after a unique field: with one, SQLite sorted every page again in a temporary B-tree.
        const { sort, tiebreak } = decisiveSort(options.sort, uniqueFieldsOf(collection));
        const terms = sort.map((s) => ({ expression: `json_extract(body, '$.${assertIdentifier(s.field)}')`, direction: s.direction === 'desc' ? 'DESC' : 'ASC' }));
        // The sort's terms named by `names` (the expressions, or the merged query's columns), then the tiebreak.
        const orderOf = (names: string[]) =>
          names
            .map((name, i) => `${name} ${terms[i]!.direction}`)
            .concat(tiebreak ? ['id ASC'] : [])
            .join(', ');
        const order = orderOf(terms.map((term) => term.expression));
        const merged = sort.length && options.limit !== undefined ? mergedOneOf(options.filter, options.range) : null;
        if (merged) {
          // Each value's first skip + limit in order, from the index that leads with the field, merged by one sort.
          const columns = terms.map((term, i) => `${term.expression} AS s${i}`).join(', ');
          const outer = orderOf(terms.map((_, i) => `s${i}`));
          const members = merged.map((where) => `SELECT * FROM (SELECT body, id, ${columns} FROM ${tableOf(collection)} ${where.sql} ORDER BY ${order} LIMIT ?)`);
          const params = merged.flatMap((where) => [...where.params, (options.skip ?? 0) + options.limit!]);
          const sql = () => `SELECT body FROM (${members.join(' UNION ALL ')}) ORDER BY ${outer} LIMIT ? OFFSET ?`;
          const rows = run(() => statement<unknown[], { body: string }>(sql()).all(...params, options.limit, options.skip ?? 0));
          return rows.map((row) => JSON.parse(row.body) as T);
        }
        const where = whereClause(options.filter, options.range);
        const sql = () => `SELECT body FROM ${tableOf(collection)} ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`;
        const rows = run(() => statement<unknown[], { body: string }>(sql()).all(...where.params, options.limit ?? -1, options.skip ?? 0));
        return rows.map((row) => JSON.parse(row.body) as T);
      },
      async count(collection: string, filter?: Filter, range?: Range): Promise<number> {
        const where = whereClause(filter, range);
        return run(() => statement<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM ${tableOf(collection)} ${where.sql}`).get(...where.params)!.n);
      },
    };
  }

  private tableOf(collection: string, projection: string, generation: number): string {
    const owner = this.ownerOf(collection);
    if (owner !== projection) throw new Error(`Collection ${collection} belongs to ${owner}, not ${projection}`);
    return physicalTable(collection, generation);
  }

  /**
   * A collection's owner, once known, never changes (registerProjection refuses to hand a collection to
   * another projection), so it is cached: every document read needs it, and the lookup was a query each.
   */
  private readonly owners = new Map<string, string>();

  private ownerOf(collection: string): string {
    const known = this.owners.get(collection);
    if (known !== undefined) return known;
    const row = this.statement<[string], { projection: string }>('SELECT projection FROM projection_collections WHERE collection = ?').get(collection);
    if (!row) throw new Error(`Unknown collection ${collection}`);
    this.owners.set(collection, row.projection);
    return row.projection;
  }

  /** Each collection's spec as registered (null: unknown) and its unique fields (CollectionSpec.unique); forgotten when a projection registers again. */
  private readonly specs = new Map<string, CollectionSpec | null>();
  private readonly uniqueFields = new Map<string, ReadonlySet<string>>();

  private specOf(collection: string): CollectionSpec | null {
    let spec = this.specs.get(collection);
    if (spec === undefined) {
      const row = this.statement<[string], { spec: string }>('SELECT spec FROM projection_collections WHERE collection = ?').get(collection);
      spec = row ? (JSON.parse(row.spec) as CollectionSpec) : null;
      this.specs.set(collection, spec);
    }
    return spec;
  }

  private uniqueFieldsOf(collection: string): ReadonlySet<string> {
    let unique = this.uniqueFields.get(collection);
    if (unique === undefined) {
      unique = new Set(this.specOf(collection)?.unique ?? []);
      this.uniqueFields.set(collection, unique);
    }
    return unique;
  }

  private collectionsOf(projection: string): CollectionSpec[] {
    return this.statement<[string], { spec: string }>('SELECT spec FROM projection_collections WHERE projection = ?')
      .all(projection)
      .map((row) => JSON.parse(row.spec) as CollectionSpec);
  }

  private liveGenerations(projection: string): number[] {
    return this.statement<[string], { generation: number }>('SELECT generation FROM projection_generations WHERE name = ? AND retired = 0')
      .all(projection)
      .map((row) => row.generation);
  }

  private generationRow(projection: string, generation: number): GenerationRow | undefined {
    return this.statement<[string, number], GenerationRow>('SELECT checkpoint, retired, version FROM projection_generations WHERE name = ? AND generation = ?').get(
      projection,
      generation,
    );
  }

  /**
   * Creates what is missing of the generation's tables and their unique indexes, and (unless told not to)
   * their plain secondary indexes. A unique index is never deferred: it is the rule that refuses a
   * duplicate write, in a rebuild's shadow too.
   */
  private createTables(projection: string, generation: number, options: { indexes: boolean } = { indexes: true }): void {
    for (const spec of this.collectionsOf(projection)) this.db.exec(`CREATE TABLE IF NOT EXISTS ${physicalTable(spec.name, generation)} (id TEXT PRIMARY KEY, body TEXT NOT NULL)`);
    for (const build of this.indexBuildsOf(projection, generation, options.indexes ? 'all' : 'unique')) build();
    if (options.indexes) this.dropUndeclaredIndexes(projection, generation);
  }

  /**
   * Drops the plain indexes of the generation's tables that no collection declares any more (one widened
   * by a field, say), so writes stop keeping them up to date. Unique indexes stay: they are rules, and a
   * declaration only ever adds them.
   */
  private dropUndeclaredIndexes(projection: string, generation: number): void {
    for (const spec of this.collectionsOf(projection)) {
      const table = physicalTable(spec.name, generation);
      const declared = new Set((spec.indexes ?? []).map((fields) => plainIndexName(table, fields)));
      const found = this.statement<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table);
      for (const { name } of found) {
        if (name.startsWith(`${table}__`) && !name.startsWith(uniqueIndexName(table, '')) && !declared.has(name)) this.db.exec(`DROP INDEX ${name}`);
      }
    }
  }

  /** One function per secondary index of the generation (plain ones unless only unique), each a no-op when the index exists. */
  private indexBuildsOf(projection: string, generation: number, which: 'all' | 'unique' = 'all'): (() => void)[] {
    return this.collectionsOf(projection).flatMap((spec) => {
      const table = physicalTable(spec.name, generation);
      const plain = (which === 'all' ? (spec.indexes ?? []) : []).map((fields) => {
        const columns = fields.map((f) => `json_extract(body, '$.${assertIdentifier(f)}')`).join(', ');
        return () => this.db.exec(`CREATE INDEX IF NOT EXISTS ${plainIndexName(table, fields)} ON ${table} (${columns})`);
      });
      const unique = (spec.unique ?? []).map((field) => () => this.createUniqueIndex(table, field));
      return [...plain, ...unique];
    });
  }

  /**
   * A unique field's index. Named apart from the plain indexes, so a table made before the field was
   * declared unique (whose plain index on it stays) gets it at start too. A table whose documents break
   * the rule (a duplicate fails the CREATE; a missing value is looked up here) stops the start: find
   * would order its ties arbitrarily.
   */
  private createUniqueIndex(table: string, field: string): void {
    const value = `json_extract(body, '$.${assertIdentifier(field)}')`;
    this.db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${uniqueIndexName(table, field)} ON ${table} (${value})`);
    const missing = this.db.prepare<[], { id: string }>(`SELECT id FROM ${table} WHERE ${value} IS NULL LIMIT 1`).get();
    if (missing) throw new Error(`Document ${missing.id} of ${table} has no ${field}, which is unique in that collection`);
  }
}

function physicalTable(collection: string, generation: number): string {
  return `rm_${assertIdentifier(collection)}_g${generation}`;
}

/** A declared index's name: made of its fields, so a widened index is a new one (and the old one undeclared). */
function plainIndexName(table: string, fields: readonly string[]): string {
  return `${table}__${fields.join('_')}`;
}

/** A unique field's index, named apart from the plain ones (see createUniqueIndex); with field '' the names' common prefix. */
function uniqueIndexName(table: string, field: string): string {
  return `${table}__unique__${field}`;
}

const OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function whereClause(filter: Filter = {}, range: Range = {}): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const [field, bounds] of Object.entries(range)) {
    const path = `json_extract(body, '$.${assertIdentifier(field)}')`;
    for (const [bound, operator] of Object.entries(OPERATORS) as [keyof Bounds, string][]) {
      const value = bounds[bound];
      if (value === undefined) continue;
      // A bound of one type never matches a value of the other (SQLite would order all numbers before all text).
      clauses.push(`${path} ${operator} ? AND typeof(${path}) ${typeof value === 'number' ? "IN ('integer', 'real')" : "= 'text'"}`);
      params.push(value);
    }
    if (bounds.oneOf !== undefined) {
      // Same expression as the indexes, so an index on the field serves it; no affinity applies, so 1 never equals '1'.
      clauses.push(bounds.oneOf.length ? `${path} IN (${bounds.oneOf.map(() => '?').join(', ')})` : '0');
      params.push(...bounds.oneOf);
    }
  }
  for (const [field, value] of Object.entries(filter)) {
    const path = `json_extract(body, '$.${assertIdentifier(field)}')`;
    if (value === null) {
      clauses.push(`${path} IS NULL`);
    } else {
      clauses.push(`${path} = ?`);
      params.push(typeof value === 'boolean' ? Number(value) : value);
    }
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * A sorted page whose range has a field of several `oneOf` values, as one where clause per value (the field
 * an equality there), or null when a plain IN serves it as well. With IN, SQLite walks one index in the
 * sort's order and reads each document to test the field (every paid bill before the first open one), or
 * sorts every match; a query per value seeks the index that leads with the field and stops at the page.
 */
function mergedOneOf(filter: Filter = {}, range: Range = {}): { sql: string; params: unknown[] }[] | null {
  const entry = Object.entries(range).find(([field, bounds]) => (bounds.oneOf?.length ?? 0) > 1 && !(field in filter));
  if (!entry) return null;
  const [field, { oneOf, ...bounds }] = entry;
  const rest = { ...range, [field]: bounds };
  return [...new Set(oneOf)].map((value) => whereClause({ ...filter, [field]: value }, rest));
}

/** getMany asks for at most this many ids per statement (SQLite bounds a statement's parameters). */
const GET_MANY_CHUNK = 500;

/**
 * SQLite's answer to a statement over a table that no longer exists (a generation retired by a swap). By
 * code and message, not `instanceof`: the native driver throws the SqliteError class of the first copy of
 * the module a process loaded, whose Error may be another realm's (jest runs each spec file in its own).
 */
function isMissingTable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'SQLITE_ERROR' && typeof message === 'string' && message.startsWith('no such table');
}

function settleCommits(commits: PendingCommit[]): void {
  for (const pending of commits) {
    const outcome = pending.outcome!;
    if ('result' in outcome) pending.resolve(outcome.result);
    else pending.reject(outcome.error);
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
