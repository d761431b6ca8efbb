import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { TestApp } from './test-app';

/** The built CLI (`npm run cli` runs it after building what is stale; run `npm run build` before these specs). */
const CLI = join(__dirname, '../../dist/src/cli.js');

/** `npm run cli -- ledger:verify` as a child process on the running app's own data dir: what an operator runs. */
export function runLedgerVerify(app: TestApp): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, 'ledger:verify'], {
    env: { ...process.env, SANDBOX: 'true', DATA_DIR: app.platform.config.dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** ledger:verify on the app's data dir exits 0 and says "ledger OK" (its output is shown when it does not). */
export async function expectLedgerVerifyClean(app: TestApp): Promise<void> {
  await app.eventCount(); // background work settled: every posting's event is in the log
  const verify = runLedgerVerify(app);
  expect({ status: verify.status, ok: verify.stdout.includes('ledger OK'), output: verify.status === 0 ? '' : `${verify.stdout}${verify.stderr}` }).toEqual({
    status: 0,
    ok: true,
    output: '',
  });
}
