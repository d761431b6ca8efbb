import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir';

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'dist/src/cli.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { staleReason } = require('../../scripts/build-if-stale.js') as { staleReason: (root: string) => string | null };

describe('npm run cli: arguments', () => {
  const dataDir = tempDir('cli-args');
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, SANDBOX: 'true', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });

  it.each([
    [['splits:as-of', 'spl_x', 'notatime'], 'error: splits:as-of: invalid time "notatime"', 'usage: npm run cli -- splits:as-of <splitId> <time>'],
    [['splits:as-of', 'spl_x', '2026-13-45'], 'error: splits:as-of: invalid time "2026-13-45"', 'usage: npm run cli -- splits:as-of <splitId> <time>'],
    [['splits:as-of', 'spl_x'], 'error: splits:as-of: missing <time>', 'usage: npm run cli -- splits:as-of <splitId> <time>'],
    [['splits:history'], 'error: splits:history: missing <splitId>', 'usage: npm run cli -- splits:history <splitId>'],
    [['projections:status', 'extra'], 'error: projections:status: unexpected argument "extra"', 'usage: npm run cli -- projections:status'],
    [['projections:rebuild'], 'error: projections:rebuild: missing <name>|--all', 'usage: npm run cli -- projections:rebuild <name>|--all'],
    [['nope'], 'error: unknown command "nope"', 'usage: npm run cli -- <command>'],
    [[], 'error: no command given', 'usage: npm run cli -- <command>'],
  ])('%j says what is wrong (exit 1)', (args, error, usage) => {
    const result = run(...args);
    expect(result.status).toBe(1);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toContain(error);
    expect(lines[1]).toBe(usage);
  });

  it('--help prints the usage and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('splits:as-of <splitId> <time>');
  });
});

describe('npm run cli: builds only when dist/ is stale', () => {
  it('runs scripts/build-if-stale.js instead of a full build every time', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.precli).toBeUndefined();
    expect(scripts.cli).toMatch(/^node scripts\/build-if-stale\.js && /);
  });

  it('is stale when the output is missing or older than a source, and fresh otherwise', () => {
    const root = tempDir('stale');
    mkdirSync(join(root, 'src/platform'), { recursive: true });
    const source = join(root, 'src/platform/a.ts');
    writeFileSync(source, 'export const a = 1;\n');
    expect(staleReason(root)).toBe('dist/src/cli.js is missing');

    mkdirSync(join(root, 'dist/src'), { recursive: true });
    const marker = join(root, 'dist/src/cli.js');
    writeFileSync(marker, '');
    const t = Date.now() / 1000;
    utimesSync(source, t - 60, t - 60);
    utimesSync(marker, t - 30, t - 30);
    expect(staleReason(root)).toBeNull();

    writeFileSync(join(root, 'src/platform/a.spec.ts'), ''); // specs are not built
    expect(staleReason(root)).toBeNull();

    utimesSync(source, t, t);
    expect(staleReason(root)).toBe('src changed since the last build');
  });
});
