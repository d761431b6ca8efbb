import { closeSync, openSync, writeSync } from 'node:fs';

const ONE_BYTE = Buffer.from([1]);

/**
 * Tells the other processes watching a SQLite file (watchSqliteFile) that a commit is visible. The WAL's
 * own writes wake them too, but those come before the commit's fsync, and with synchronous = FULL a commit
 * becomes visible only after it: a watcher that looked then found nothing new and slept until its next
 * poll (20–25 ms), which was most of the wait between a projection's commit in the worker and the api's
 * answer to the write it waited for. One byte written to `<file>-commits` after each commit wakes them
 * when there is something to see. Only a hint: the file holds nothing, is never read and never synced.
 */
export class CommitSignal {
  private fd: number | null;

  constructor(file: string) {
    this.fd = openSync(`${file}-commits`, 'w');
  }

  /** Call once the commit has returned, i.e. once other connections can read it. */
  signal(): void {
    if (this.fd !== null) writeSync(this.fd, ONE_BYTE, 0, 1, 0);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
