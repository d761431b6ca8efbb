import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every bench, run at smoke size (BENCH_SMOKE=1: about a second of load each, one round, no target
 * checked) through `npm run bench -- all`'s entry point on the built dist/, as `npm test` runs after
 * `npm run build`: a bench that no longer runs fails here the day it breaks (issue 31 item 4).
 */
const RUN_BENCH = join(__dirname, '../../dist/bench/run-bench.js');

describe('bench smoke run', () => {
  it('runs every bench once at a tiny size and prints the one table of targets', () => {
    if (!existsSync(RUN_BENCH)) throw new Error(`${RUN_BENCH} is missing: run npm run build first`);
    // The rebuild bench's generated log goes to a fresh directory, not the cache a full run keeps.
    const rebuildDir = join(tmpdir(), `paysplit-bench-smoke-rebuild-${process.pid}`);
    const run = spawnSync(process.execPath, [RUN_BENCH, 'all'], { env: { ...process.env, BENCH_SMOKE: '1', BENCH_REBUILD_DIR: rebuildDir }, encoding: 'utf8', timeout: 600_000 });
    rmSync(rebuildDir, { recursive: true, force: true });
    const output = `${run.stdout}\n${run.stderr}`;
    expect({ status: run.status, failed: output.match(/^\S+ failed:.*$/gm) }).toEqual({ status: 0, failed: null });
    const table = run.stdout.slice(run.stdout.indexOf('every target, load average'));
    expect(table).toMatch(/^every target/);
    for (const bench of ['event-store', 'webhooks', 'checkout', 'split', 'settlement', 'mixed', 'rebuild', 'event-ids']) {
      expect(table).toMatch(new RegExp(`^  ${bench} +\\|`, 'm'));
    }
    // A smoke run's sizes say nothing about the targets: none is judged.
    expect(table).not.toMatch(/\| +(PASS|MISS)$/m);
  }, 660_000);
});
