import type Database from 'better-sqlite3';
import type { AppendResult, ExpectedRevision } from '../event-store.port';

/** One append as the committer receives it: data and metadata already JSON (the store keeps text). */
export interface AppendRequest {
  streamId: string;
  expected: ExpectedRevision;
  /** [event id, type, data JSON, metadata JSON] */
  events: [string, string, string, string][];
}

export type AppendOutcome =
  { ok: AppendResult } | { conflict: { streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' } } | { error: { message: string; code: string } };

/** An append (or its whole group) SQLite refused, as the committer reported it: message and SQLite code. */
export class SqliteAppendError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * The append transaction of the embedded event store: one BEGIN IMMEDIATE transaction per group, each
 * append atomic on its own (one that fails leaves no row behind and does not touch the others: an append
 * that throws sends the group round again with each append in a savepoint); re-appending events whose ids
 * are already stored in the stream, in the same order, is a no-op.
 * Throws when SQLite abandoned the whole transaction (disk full, I/O error): nothing of the group stands.
 *
 * It runs on the service's thread or inside the writer thread (EventWriterThread), which receives it as
 * source text (`groupAppender.toString()`): so it is self-contained, using nothing but its argument and
 * the language (no imports, no helpers outside it, no TypeScript that emits code).
 */
export function groupAppender(db: Database.Database): (group: AppendRequest[]) => AppendOutcome[] {
  const streamHead = db.prepare<[string], number>('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1').pluck();
  const byEventId = db.prepare<[string], { stream_id: string; revision: number; position: number }>('SELECT stream_id, revision, position FROM events WHERE event_id = ?');
  const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const headOf = (streamId: string): number | 'no_stream' => streamHead.get(streamId) ?? 'no_stream';
  const conflict = (streamId: string, expected: ExpectedRevision) => ({ conflict: { streamId, expected, actual: headOf(streamId) } });

  const appendOne = (append: AppendRequest): AppendOutcome => {
    // A replay re-appends all of an append's events (they were stored together): its first id tells. Events
    // of which only a later one is stored hit the event id's UNIQUE index below and are refused as a conflict.
    if (byEventId.get(append.events[0]![0]) !== undefined) {
      const stored = append.events.map((event) => byEventId.get(event[0]));
      const first = stored[0];
      const consistent = stored.every((row, index) => row && first && row.stream_id === append.streamId && row.revision === first.revision + index);
      if (!consistent) return conflict(append.streamId, 'any');
      return { ok: { nextExpectedRevision: streamHead.get(append.streamId)!, position: stored[stored.length - 1]!.position } };
    }
    const current = headOf(append.streamId);
    const expected = append.expected;
    if (expected === 'no_stream' ? current !== 'no_stream' : expected !== 'any' && current !== expected) return conflict(append.streamId, expected);
    let revision = current === 'no_stream' ? -1 : current;
    let position = 0;
    for (const [id, type, data, metadata] of append.events) {
      revision += 1;
      position = Number(insert.run(append.streamId, revision, id, type, data, metadata).lastInsertRowid);
    }
    return { ok: { nextExpectedRevision: revision, position } };
  };

  const inSavepoint = db.transaction(appendOne);
  const carefully = db.transaction((appends: AppendRequest[]) =>
    appends.map((append): AppendOutcome => {
      try {
        return inSavepoint(append);
      } catch (error) {
        if (!db.inTransaction) throw error;
        const { message, code } = error as { message?: string; code?: string };
        if (code === 'SQLITE_CONSTRAINT_UNIQUE' && message?.includes('events.event_id')) return conflict(append.streamId, 'any');
        return { error: { message: message ?? 'the append failed', code: code ?? 'SQLITE_ERROR' } };
      }
    }),
  );
  // Most groups have no append that throws (a revision conflict or a replay is found before the first
  // INSERT): they run without savepoints. A savepoint makes SQLite copy each page the append changes to a
  // statement journal first, and an append of 100 events changes about 100 pages of the event_id index:
  // that copy was a third of the CPU time of such an append (npm run bench -- event-store). An append
  // that throws rolls the whole transaction back, and the group runs again, each append in its savepoint.
  const optimistically = db.transaction((appends: AppendRequest[]) => appends.map(appendOne));
  return (appends) => {
    try {
      return optimistically.immediate(appends);
    } catch (error) {
      // A busy write lock (busy_timeout ran out) is not an append that threw: the group never began, and
      // redoing it would only wait for the lock a second time.
      if (String((error as { code?: string }).code).startsWith('SQLITE_BUSY')) throw error;
      return carefully.immediate(appends);
    }
  };
}
