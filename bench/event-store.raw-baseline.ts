import Database from 'better-sqlite3';
import type { NewEvent } from '../src/platform/event-store/event-store.port';
import { EVENTS_SCHEMA as SCHEMA } from '../src/platform/event-store/sqlite/sqlite-event-store';
import { useDurableWal } from '../src/platform/sqlite/durable-wal';

/**
 * Raw better-sqlite3 baseline for bench/event-store.bench.ts: the least work any SQLite adapter has to
 * do for an append with an expected-revision check (BEGIN IMMEDIATE, read the stream head, compare,
 * INSERT each event, COMMIT). The schema is imported from the adapter so the two can never drift;
 * pragmas are the adapter's own (useDurableWal: WAL, synchronous = FULL), so both pay the same fsync per commit.
 * Serialisation (JSON.stringify of data and metadata) is timed too, because the adapter has to do it.
 */

export interface RawStore {
  /** Appends events with an exact expected revision (-1 = stream must not exist); returns the new head. */
  append(streamId: string, events: NewEvent[], expected: number): number;
  count(): number;
  close(): void;
}

export function openRawStore(file: string): RawStore {
  const db = new Database(file);
  useDurableWal(db);
  db.exec(SCHEMA);
  const streamHead = db.prepare<[string], { revision: number }>('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
  const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const tx = db.transaction((streamId: string, events: NewEvent[], expected: number): number => {
    const current = streamHead.get(streamId)?.revision ?? -1;
    if (current !== expected) throw new Error(`raw baseline: ${streamId} expected ${expected}, is ${current}`);
    let revision = current;
    for (const event of events) {
      revision += 1;
      insert.run(streamId, revision, event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata));
    }
    return revision;
  });
  return {
    append: (streamId, events, expected) => tx.immediate(streamId, events, expected),
    count: () => (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n,
    close: () => db.close(),
  };
}
