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
 * append in a savepoint (one that fails its revision check leaves no row behind and does not touch the
 * others); re-appending events whose ids are already stored in the stream, in the same order, is a no-op.
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
  const group = db.transaction((appends: AppendRequest[]) =>
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
  return (appends) => group.immediate(appends);
}
