#!/usr/bin/env node
// `npm run cli` runs this first: it compiles (`npm run build`) only when dist/ is missing or older than
// what it is built from, so a second `npm run cli -- ...` starts at once instead of spending ~10 s in tsc.
// Stale means: the marker output (dist/src/cli.js) is missing, or a source file (src/, bench/, the
// tsconfig files, package.json) was changed after it was written. tsc rewrites every output on a build,
// so the marker's mtime is the time of the last build.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const INPUTS = ['src', 'bench', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
const MARKER = join('dist', 'src', 'cli.js');

/** The newest mtime (ms) of a file, or of every .ts file and page asset under a directory; 0 if it does not exist. */
function newestInput(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestInput(child));
    else if ((entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) || path.endsWith(join('http', 'assets'))) newest = Math.max(newest, statSync(child).mtimeMs);
  }
  return newest;
}

/** Why `root` needs a build, or null when dist/ is up to date. */
function staleReason(root) {
  const marker = join(root, MARKER);
  if (!existsSync(marker)) return `${MARKER} is missing`;
  const built = statSync(marker).mtimeMs;
  for (const input of INPUTS) {
    if (newestInput(join(root, input)) > built) return `${input} changed since the last build`;
  }
  return null;
}

module.exports = { staleReason };

if (require.main === module) {
  const root = join(__dirname, '..');
  const reason = staleReason(root);
  if (reason !== null) {
    process.stderr.write(`building dist/ (${reason})\n`);
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['inherit', 2, 2], shell: process.platform === 'win32' });
    process.exit(build.status ?? 1);
  }
}
