import Database from 'better-sqlite3';

/** The pragmas of useDurableWal, also applied by a connection opened in a thread (the event store's writer). */
export const DURABLE_WAL_PRAGMAS: readonly string[] = ['journal_mode = WAL', 'synchronous = FULL', 'busy_timeout = 5000'];

/**
 * The pragmas of every SQLite file the service writes (events.db, read.db, webhooks.db): WAL, and
 * `synchronous = FULL`, so a commit returns only once its WAL frames are fsynced. An append, a
 * checkpoint or a delivery row is acknowledged only once it would survive a power loss or an OS crash
 * (with NORMAL, the default for WAL, a commit was only handed to the OS: each file could lose its last
 * commits independently of the other two, issue 31). The benches' raw baselines use the same function.
 */
export function useDurableWal(db: Database.Database): void {
  for (const pragma of DURABLE_WAL_PRAGMAS) db.pragma(pragma);
}
