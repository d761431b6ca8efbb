import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir for one test's real SQLite files. */
export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `paysplit-${label}-`));
}
