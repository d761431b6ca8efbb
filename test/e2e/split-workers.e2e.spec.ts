import Database from 'better-sqlite3';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createCreator, createEnterprise, createSme, creatorRow, dataOf, newIdempotencyKey } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { tempDir } from '../support/temp-dir';
import { answer, jsonOf, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

const MAIN = join(__dirname, '../../dist/src/main.js');

async function startWorker(dataDir: string, workerRuns: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, SANDBOX: 'true', ROLE: 'worker', WORKER_RUNS: workerRuns, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker (${workerRuns}) exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => line.includes('paysplit listening') && resolve());
  });
  return child;
}

/** The subscriber leases in read.db (`subscriber:<name>`), by owner: which process runs which subscriber. */
function subscribersByOwner(dataDir: string): Map<string, string[]> {
  const db = new Database(join(dataDir, 'read.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT name, owner FROM leases WHERE name LIKE 'subscriber:%'").all() as { name: string; owner: string }[];
    const owners = new Map<string, string[]>();
    for (const { name, owner } of rows) owners.set(owner, [...(owners.get(owner) ?? []), name.slice('subscriber:'.length)]);
    return owners;
  } finally {
    db.close();
  }
}

/**
 * WORKER_RUNS splits the worker in two (docs/operations.md#roles): one process applies the read models,
 * another runs the process managers, timers and webhook deliveries. A Split created through the api is
 * answered once the read-models worker projected it, funded by the process-managers worker, and its
 * approval webhook is delivered by that worker, with neither worker running the other's subscribers.
 */
describe('ROLE=api beside two workers split by WORKER_RUNS', () => {
  let dataDir: string;
  let readModels: ChildProcess;
  let processManagers: ChildProcess;
  let api: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    dataDir = tempDir('split-workers');
    readModels = await startWorker(dataDir, 'read-models');
    processManagers = await startWorker(dataDir, 'process-managers');
    api = await startTestApp({ ROLE: 'api', DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver(answer(200));
  }, 60_000);

  afterAll(async () => {
    await api.close();
    await receiver.close();
    for (const worker of [readModels, processManagers]) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
  }, 60_000);

  it('runs the projections in one worker and the process managers in the other', async () => {
    const kinds = new Map<string, string>(dataOf(await api.request('GET', '/health'), 200).projections.map((p: { name: string; kind: string }) => [p.name, p.kind]));
    let owners = subscribersByOwner(dataDir);
    for (let waited = 0; [...owners.values()].flat().length < kinds.size && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      owners = subscribersByOwner(dataDir);
    }
    const held = [...owners.values()].map((names) => new Set(names.map((name) => kinds.get(name))));
    expect(held).toHaveLength(2);
    expect(held).toEqual(expect.arrayContaining([new Set(['projection']), new Set(['processor'])]));
    expect([...owners.values()].flat().sort()).toEqual([...kinds.keys()].sort());
  });

  it('answers a Split create once projected, funds it and delivers its approval webhook', async () => {
    const [sme, enterprise, creator] = await Promise.all([createSme(api, 'Two Workers Staffing'), createEnterprise(api, 'Two Workers Enterprise'), createCreator(api)]);
    dataOf(await api.request('PUT', `/api/commerce/split-settings/sme/${sme.companyId}`, { token: enterprise.sessionToken, body: { autoAccept: true, coverFees: false } }), 200);
    dataOf(
      await api.request('POST', '/api/commerce/webhooks/endpoints', { token: sme.sessionToken, body: { url: `${receiver.url}/hooks`, eventTypes: ['split.leg_a.approved'] } }),
      201,
    );
    const split = dataOf(
      await api.request('POST', '/api/commerce/integration/splits', {
        token: sme.apiKey,
        body: {
          enterpriseCompanyId: enterprise.companyId,
          apContactBusinessProfileId: enterprise.apContactId,
          clientIdempotencyKey: newIdempotencyKey('two-workers'),
          roster: [creatorRow(creator, '12500')],
        },
      }),
      201,
    );
    expect(split.status).toBe('APPROVED');

    const [delivered] = await receiver.waitForCount(1, 20_000);
    expect(jsonOf(delivered!).data.splitId).toBe(split.id);
    const deadline = Date.now() + 20_000;
    let status = split.status as string;
    while (status === 'APPROVED' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = dataOf(await api.request('GET', `/api/commerce/integration/splits/${split.id}`, { token: sme.apiKey }), 200).status;
    }
    expect(['FUNDED', 'SETTLING', 'SETTLED']).toContain(status);
  });
});
