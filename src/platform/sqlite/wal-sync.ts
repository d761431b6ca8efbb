import type Database from 'better-sqlite3';
import { closeSync, fsync, openSync } from 'node:fs';

/**
 * Commits whose fsync runs off the event loop (libuv's thread pool). `unsynced` makes a commit with
 * `synchronous = NORMAL`, which writes its WAL frames but leaves them to the OS, and `sync` fsyncs the WAL:
 * a commit whose frames are in the WAL is durable once the WAL is fsynced, which is all that
 * `synchronous = FULL` adds at each commit, there on the committing thread. Commits made while an fsync
 * runs share the next one. The connection stays at FULL for every other write.
 */
export class WalSync {
  private fd: number | null;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private readonly synchronous;

  /** Open once the database is in WAL mode (useDurableWal), so its WAL file exists while `db` is open. */
  constructor(db: Database.Database, databaseFile: string) {
    this.fd = openSync(`${databaseFile}-wal`, 'r');
    this.synchronous = { normal: db.prepare('PRAGMA synchronous = NORMAL'), full: db.prepare('PRAGMA synchronous = FULL') };
  }

  /** Runs `commit` (one or more write transactions) without an fsync; follow it with `sync` before acknowledging. */
  unsynced<R>(commit: () => R): R {
    this.synchronous.normal.run();
    try {
      return commit();
    } finally {
      this.synchronous.full.run();
    }
  }

  /** Resolves once everything written to the WAL before the call is on disk. */
  sync(): Promise<void> {
    if (!this.running) return this.start();
    // The running fsync may have begun before the caller's writes: they need one that starts after it.
    this.next ??= this.running.then(
      () => this.startNext(),
      () => this.startNext(),
    );
    return this.next;
  }

  /** Waits for the fsyncs under way, then closes the WAL file. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private startNext(): Promise<void> {
    this.next = null;
    return this.start();
  }

  private start(): Promise<void> {
    const fd = this.fd;
    if (fd === null) return Promise.reject(new Error('WalSync is closed'));
    const running = new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
    this.running = running;
    const clear = () => {
      if (this.running === running) this.running = null;
    };
    running.then(clear, clear);
    return running;
  }
}
