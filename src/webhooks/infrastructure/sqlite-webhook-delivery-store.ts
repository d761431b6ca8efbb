import Database from 'better-sqlite3';
import { WalSync } from '../../platform/sqlite/wal-sync';
import { WalCheckpointer } from '../../platform/sqlite/wal-checkpointer';
import { useDurableWal } from '../../platform/sqlite/durable-wal';
import {
  DeliveryFilter,
  DeliveryQueueCounts,
  DeliveryRecord,
  DeliveryStatus,
  NewDelivery,
  RecordedAttempt,
  ReleasedDelivery,
  WebhookDeliveryStore,
} from '../application/webhook-delivery-store.port';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, company_id TEXT NOT NULL, event_id TEXT NOT NULL,
  event_type TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL, attempts TEXT NOT NULL DEFAULT '[]',
  last_attempt INTEGER NOT NULL DEFAULT 0, series_start INTEGER NOT NULL DEFAULT 1, next_attempt_at TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, lease_owner TEXT, lease_until_ms INTEGER,
  redelivery_requested_by TEXT);
CREATE INDEX IF NOT EXISTS deliveries_due_unclaimed ON deliveries (next_attempt_at, id) WHERE status = 'pending' AND lease_owner IS NULL;
CREATE INDEX IF NOT EXISTS deliveries_claimed ON deliveries (lease_until_ms) WHERE lease_owner IS NOT NULL;
CREATE INDEX IF NOT EXISTS deliveries_by_endpoint ON deliveries (endpoint_id, created_at, id);
CREATE INDEX IF NOT EXISTS deliveries_failed ON deliveries (endpoint_id, created_at, id) WHERE status = 'failed';
CREATE TABLE IF NOT EXISTS dispatch_marks (name TEXT PRIMARY KEY, position INTEGER NOT NULL);`;

/** The one row of dispatch_marks: the webhook dispatcher's. */
const DISPATCHER_MARK = 'dispatcher';

interface Row {
  id: string;
  endpoint_id: string;
  company_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: string;
  last_attempt: number;
  series_start: number;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, endpoint_id, company_id, event_id, event_type, body, status, attempts, last_attempt, series_start, next_attempt_at, created_at, updated_at';

/**
 * Webhook deliveries in their own SQLite file (WAL), so the delivery worker's writes never queue behind
 * projection commits on the read store's write lock.
 */
export class SqliteWebhookDeliveryStore implements WebhookDeliveryStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly checkpointer: WalCheckpointer;
  private readonly walSync: WalSync;
  /**
   * One transaction function for every write, made once: `db.transaction(work)` per call built a new
   * wrapper each time, about a fifth of an empty claim's cost (webhooks bench profile, issue 31).
   */
  private readonly transaction: Database.Transaction<(work: () => unknown) => unknown>;

  constructor(file: string) {
    this.db = new Database(file);
    useDurableWal(this.db);
    const fresh = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'deliveries'").get() === undefined;
    this.db.exec(SCHEMA);
    // A new file holds no delivery yet: its mark is 0, so a dispatcher checkpoint beside it (webhooks.db
    // deleted or replaced) re-dispatches the whole log. A file from before marks has none (null).
    if (fresh) this.db.prepare('INSERT OR IGNORE INTO dispatch_marks (name, position) VALUES (?, 0)').run(DISPATCHER_MARK);
    // Checkpoints in a background thread, as the read store does: not inside the worker's commits.
    this.checkpointer = new WalCheckpointer(this.db, file);
    this.transaction = this.db.transaction((work: () => unknown) => work());
    this.walSync = new WalSync(this.db, file);
  }

  async createDeliveries(deliveries: NewDelivery[]): Promise<string[]> {
    const insert = this.statement(
      `INSERT INTO deliveries (id, endpoint_id, company_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at, lease_owner, lease_until_ms)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    );
    return this.durably(() =>
      deliveries
        .filter(
          (d) =>
            insert.run(d.id, d.endpointId, d.companyId, d.eventId, d.eventType, d.body, d.nextAttemptAt, d.createdAt, d.createdAt, d.claim?.owner ?? null, d.claim?.untilMs ?? null)
              .changes === 1,
        )
        .map((d) => d.id),
    );
  }

  /**
   * Two index ranges: claims whose lease ran out (a dead worker's) first, then unclaimed due ones. The
   * deliveries in flight are in neither range, so a claim never scans past them; most deliveries are
   * created claimed by the worker that sends them and never enter the unclaimed index at all.
   */
  async claimDue(now: string, owner: string, nowMs: number, leaseMs: number, limit: number, skipEndpoints: readonly string[]): Promise<DeliveryRecord[]> {
    const skip = JSON.stringify(skipEndpoints);
    return this.durably(() => {
      const expired = this.statement(
        `SELECT id FROM deliveries WHERE lease_owner IS NOT NULL AND lease_until_ms <= ?
            AND status = 'pending' AND next_attempt_at <= ? AND endpoint_id NOT IN (SELECT value FROM json_each(?))
          ORDER BY lease_until_ms LIMIT ?`,
      ).all(nowMs, now, skip, limit) as { id: string }[];
      const due = this.statement(
        `SELECT id FROM deliveries WHERE status = 'pending' AND lease_owner IS NULL AND next_attempt_at <= ?
            AND endpoint_id NOT IN (SELECT value FROM json_each(?))
          ORDER BY next_attempt_at, id LIMIT ?`,
      ).all(now, skip, limit - expired.length) as { id: string }[];
      const ids = [...expired, ...due].map(({ id }) => id);
      if (ids.length === 0) return [];
      const rows = this.statement(`UPDATE deliveries SET lease_owner = ?, lease_until_ms = ? WHERE id IN (SELECT value FROM json_each(?)) RETURNING ${COLUMNS}`).all(
        owner,
        nowMs + leaseMs,
        JSON.stringify(ids),
      ) as Row[];
      return rows.map(toRecord).sort((a, b) => compare(a.nextAttemptAt!, b.nextAttemptAt!) || compare(a.id, b.id));
    });
  }

  async claim(deliveryId: string, owner: string, nowMs: number, leaseMs: number): Promise<DeliveryRecord | null> {
    const row = this.statement(
      `UPDATE deliveries SET lease_owner = ?, lease_until_ms = ?
        WHERE id = ? AND status = 'pending' AND (lease_until_ms IS NULL OR lease_until_ms <= ?)
       RETURNING ${COLUMNS}`,
    ).get(owner, nowMs + leaseMs, deliveryId, nowMs) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /**
   * The first attempt of a delivery (most of them) makes its list by concatenation: json_insert parses
   * the list and the attempt and writes them out again, which was about a third of the statement's cost
   * (webhooks bench, issue 31). Later attempts are appended with json_insert as before.
   */
  async recordAttempts(owner: string, attempts: RecordedAttempt[], updatedAt: string): Promise<string[]> {
    const record = this.statement(
      `UPDATE deliveries SET status = ?, last_attempt = ?, next_attempt_at = ?,
              attempts = CASE attempts WHEN '[]' THEN '[' || ? || ']' ELSE json_insert(attempts, '$[#]', json(?)) END,
              updated_at = ?, lease_owner = NULL, lease_until_ms = NULL
        WHERE id = ? AND last_attempt = ? AND lease_owner = ?`,
    );
    return this.durably(() =>
      attempts
        .filter((a) => {
          const attempt = JSON.stringify(a.attempt);
          return record.run(a.status, a.attempt.attempt, a.nextAttemptAt, attempt, attempt, updatedAt, a.deliveryId, a.attempt.attempt - 1, owner).changes === 1;
        })
        .map((a) => a.deliveryId),
    );
  }

  async release(owner: string, released: ReleasedDelivery[], updatedAt: string): Promise<void> {
    const release = this.statement(
      `UPDATE deliveries SET lease_owner = NULL, lease_until_ms = NULL, updated_at = ?,
              next_attempt_at = CASE WHEN ? THEN next_attempt_at ELSE NULL END
        WHERE id = ? AND lease_owner = ?`,
    );
    await this.durably(() => {
      for (const r of released) release.run(updatedAt, r.keepDue ? 1 : 0, r.deliveryId, owner);
    });
  }

  async restartSeries(deliveryId: string, lastAttempt: number, seriesStart: number, dueAt: string, requestedBy: string): Promise<boolean> {
    const result = this.statement(
      `UPDATE deliveries SET status = 'pending', series_start = ?, next_attempt_at = ?, updated_at = ?, redelivery_requested_by = ?
        WHERE id = ? AND last_attempt = ?`,
    ).run(seriesStart, dueAt, dueAt, requestedBy, deliveryId, lastAttempt);
    return result.changes === 1;
  }

  async get(deliveryId: string): Promise<DeliveryRecord | null> {
    const row = this.statement(`SELECT ${COLUMNS} FROM deliveries WHERE id = ?`).get(deliveryId) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  async list(filter: DeliveryFilter, skip: number, limit: number): Promise<DeliveryRecord[]> {
    const { where, params } = whereOf(filter);
    const rows = this.statement(`SELECT ${COLUMNS} FROM deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(...params, limit, skip) as Row[];
    return rows.map(toRecord);
  }

  async count(filter: DeliveryFilter): Promise<number> {
    const { where, params } = whereOf(filter);
    return (this.statement(`SELECT COUNT(*) AS n FROM deliveries WHERE ${where}`).get(...params) as { n: number }).n;
  }

  async deleteForEndpoint(endpointId: string): Promise<number> {
    return this.statement('DELETE FROM deliveries WHERE endpoint_id = ?').run(endpointId).changes;
  }

  async nextDueAt(): Promise<string | null> {
    const unclaimed = this.statement("SELECT MIN(next_attempt_at) AS due FROM deliveries WHERE status = 'pending' AND lease_owner IS NULL").get() as { due: string | null };
    const claimed = this.statement("SELECT MIN(next_attempt_at) AS due FROM deliveries WHERE lease_owner IS NOT NULL AND status = 'pending'").get() as { due: string | null };
    if (unclaimed.due === null || claimed.due === null) return unclaimed.due ?? claimed.due;
    return unclaimed.due < claimed.due ? unclaimed.due : claimed.due;
  }

  async queueCounts(): Promise<DeliveryQueueCounts> {
    const unclaimed = this.statement("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending' AND lease_owner IS NULL AND next_attempt_at IS NOT NULL").get() as {
      n: number;
    };
    const claimed = this.statement("SELECT COUNT(*) AS n FROM deliveries WHERE lease_owner IS NOT NULL AND status = 'pending' AND next_attempt_at IS NOT NULL").get() as {
      n: number;
    };
    const failed = this.statement("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'failed'").get() as { n: number };
    return { queued: unclaimed.n + claimed.n, failed: failed.n };
  }

  async dispatchedThrough(): Promise<number | null> {
    const row = this.statement('SELECT position FROM dispatch_marks WHERE name = ?').get(DISPATCHER_MARK) as { position: number } | undefined;
    return row?.position ?? null;
  }

  async markDispatched(position: number): Promise<void> {
    const mark = this.statement('INSERT INTO dispatch_marks (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)');
    await this.durably(() => mark.run(DISPATCHER_MARK, position));
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    await this.walSync.close();
    await this.checkpointer.stop();
    this.db.close();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private immediate<R>(work: () => R): R {
    return this.transaction.immediate(work) as R;
  }

  /**
   * The hot writes (creates, claims, attempt records, releases, the dispatcher's mark): acknowledged once durable like the others,
   * but with their fsync off the event loop (WalSync), so the delivery worker sends meanwhile. A claim or a
   * delivery row that another process reads before the fsync returns and a power loss then takes back is
   * claimed or created again: deliveries are at least once, deduplicated by delivery id.
   */
  private async durably<R>(work: () => R): Promise<R> {
    const result = this.walSync.unsynced(() => this.immediate(work));
    await this.walSync.sync();
    return result;
  }
}

function whereOf(filter: DeliveryFilter): { where: string; params: string[] } {
  const conditions: [string, string | undefined][] = [
    ['endpoint_id = ?', filter.endpointId],
    ['status = ?', filter.status],
    ['event_type = ?', filter.eventType],
    ['created_at >= ?', filter.from],
    ['created_at <= ?', filter.to],
  ];
  const used = conditions.filter((condition): condition is [string, string] => condition[1] !== undefined);
  return { where: used.map(([clause]) => clause).join(' AND '), params: used.map(([, value]) => value) };
}

function toRecord(row: Row): DeliveryRecord {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    companyId: row.company_id,
    eventId: row.event_id,
    eventType: row.event_type,
    body: row.body,
    status: row.status,
    attempts: JSON.parse(row.attempts) as DeliveryRecord['attempts'],
    lastAttempt: row.last_attempt,
    seriesStart: row.series_start,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
