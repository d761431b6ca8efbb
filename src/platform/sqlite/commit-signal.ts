import { closeSync, openSync, watch, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';

const ONE_BYTE = Buffer.from([1]);
const signalFile = (file: string) => `${file}-commits`;

/**
 * Tells the other processes watching a SQLite file (watchCommitSignal) that a commit is visible. The WAL's
 * own writes wake them too, but those come before the commit's fsync, and with synchronous = FULL a commit
 * becomes visible only after it: a watcher that looked then found nothing new and slept until its next
 * poll (20–25 ms), which was most of the wait between a projection's commit in the worker and the api's
 * answer to the write it waited for. One byte written to `<file>-commits` after each commit wakes them
 * when there is something to see. Only a hint: the file holds nothing, is never read and never synced.
 */
export class CommitSignal {
  private fd: number | null;

  constructor(file: string) {
    this.fd = openSync(signalFile(file), 'w');
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

/**
 * Calls `onCommit` whenever a process (this one or another) signals a commit of the SQLite file (inotify on
 * the directory). Only the signal wakes it, not the WAL's writes: those came before their commit was
 * readable and several times per commit, each a needless read by every waiter. It only wakes pollers early,
 * so a missed signal costs one poll interval, never an event; if the watch fails, a process warning says so
 * and the pollers carry on alone.
 */
export function watchCommitSignal(file: string, onCommit: () => void): () => void {
  const name = basename(signalFile(file));
  const watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
    if (changed === null || changed === name) onCommit();
  });
  watcher.on('error', (error) => {
    process.emitWarning(`watching ${file} failed (${error.message}); waiting by polling alone`);
    watcher.close();
  });
  return () => watcher.close();
}
