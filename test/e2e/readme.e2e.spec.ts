import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';
import { tempDir } from '../support/temp-dir';

const ROOT = join(__dirname, '../..');

/** The shell blocks of the README's "first Split" walk-through, between its markers, in order. */
function walkThrough(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- first-split:start -->');
  const end = readme.indexOf('<!-- first-split:end -->');
  if (start < 0 || end < start) throw new Error('README.md has no first-split markers');
  const blocks = [...readme.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  if (blocks.length < 5) throw new Error(`expected the walk-through's shell blocks, found ${blocks.length}`);
  return blocks.join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a script in bash without blocking this process (the service under test runs in it). */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Whatever happens, the background jobs it started (the webhook receiver) end with it.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', `trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${script}`], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('README: your first Split in five minutes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('runs every command of the walk-through: the Split settles and the webhooks arrive signed', async () => {
    for (const tool of ['curl', 'jq']) expect({ tool, found: spawnSync('which', [tool]).status === 0 }).toEqual({ tool, found: true });
    // The walk-through runs "in the repository": its scripts/ folder, but a fresh folder for hooks.log.
    const cwd = tempDir('readme');
    symlinkSync(join(ROOT, 'scripts'), join(cwd, 'scripts'));
    const result = await bash(walkThrough(), cwd, { BASE: app.url, HOOK_PORT: String(await freePort()) });
    if (result.code !== 0) throw new Error(`the walk-through failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);

    const lines = result.stdout.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^created spl_[0-9a-z]{26}$/));
    expect(lines).toContain('APPROVED');
    const split = JSON.parse(lines.find((line) => line.startsWith('{"status"'))!);
    expect(split).toEqual({ status: 'SETTLED', marginStatus: 'RELEASED', rows: [{ contractorDisplayName: 'Casey Creator', status: 'COMPLETED', netAmountCents: '40000' }] });
    const hooks = lines.filter((line) => / dlv_\w+ signature /.test(line));
    expect(hooks.map((line) => line.split(' ').slice(0, 1).concat(line.split(' ').slice(2, 4)).join(' ')).sort()).toEqual([
      'split.leg_a.approved signature ok',
      'split.margin.settled signature ok',
      'split.roster_entry.settled signature ok',
    ]);
  }, 60_000);
});
