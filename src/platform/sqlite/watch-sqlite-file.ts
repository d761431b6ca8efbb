import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Calls `onChange` whenever a SQLite file or its WAL is written, by this process or another one (inotify
 * on the directory). It only wakes pollers early, so a change that is missed costs one poll interval,
 * never an event; if the watch fails, a process warning says so and the pollers carry on alone.
 */
export function watchSqliteFile(file: string, onChange: () => void): () => void {
  const name = basename(file);
  const watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
    if (changed === null || changed.startsWith(name)) onChange();
  });
  watcher.on('error', (error) => {
    process.emitWarning(`watching ${file} failed (${error.message}); waiting by polling alone`);
    watcher.close();
  });
  return () => watcher.close();
}
