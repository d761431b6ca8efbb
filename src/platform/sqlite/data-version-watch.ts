import Database from 'better-sqlite3';

/**
 * Calls `onCommit` within `intervalMs` of a commit by any other connection to the database (another
 * process, or this process's writer thread). SQLite's data_version changes for exactly those commits and
 * reading it touches no page, so one check serves every poller of the process. Returns the stop function.
 */
export function onOtherConnectionsCommits(db: Database.Database, intervalMs: number, onCommit: () => void): () => void {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seen = dataVersion.get();
  const timer = setInterval(() => {
    const now = dataVersion.get();
    if (now === seen) return;
    seen = now;
    onCommit();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
