import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { tempDir } from '../support/temp-dir';

const CLI = join(__dirname, '../../dist/src/cli.js');

describe('npm run cli -- projections:resume', () => {
  const run = (dataDir: string, ...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, SANDBOX: 'true', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });

  it('clears a stalled process manager so its runner retries, and refuses an unknown name', async () => {
    const dataDir = tempDir('resume');
    expect(run(dataDir, 'projections:status').status).toBe(0);
    const store = new SqliteReadStore(join(dataDir, 'read.db'));
    await store.setProjectionError('checkout_payments', 'checkout_payments: stream checkout_order-x jumps from revision 0 to 2');
    expect(run(dataDir, 'projections:status').status).toBe(2);

    const resumed = run(dataDir, 'projections:resume', 'checkout_payments');
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain('checkout_payments: cleared "checkout_payments: stream checkout_order-x jumps from revision 0 to 2"');
    expect(await store.projectionState('checkout_payments')).toMatchObject({ status: 'running', error: null });
    expect(run(dataDir, 'projections:resume', 'checkout_payments').stdout).toContain('checkout_payments is not stalled');

    const unknown = run(dataDir, 'projections:resume', 'nope');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('Unknown projection or process manager nope');
    await store.close();
  }, 90_000); // five CLI processes, each seconds to start on a busy machine
});
