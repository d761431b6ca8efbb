import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { signup, startTestApp, TestApp } from '../support/test-app';
import { tempDir } from '../support/temp-dir';

const MAIN = join(__dirname, '../../dist/src/main.js');

/**
 * DESIGN section 1's production shape on the embedded stores: an API process (ROLE=api, no subscribers)
 * beside a worker process (ROLE=worker) on the same files. The worker learns of the API's appends and
 * the API of the worker's commits through the files alone.
 */
describe('ROLE=api beside ROLE=worker', () => {
  let dataDir: string;
  let worker: ChildProcess;
  let api: TestApp;

  beforeAll(async () => {
    dataDir = tempDir('roles');
    worker = spawn(process.execPath, [MAIN], {
      env: { ...process.env, SANDBOX: 'true', ROLE: 'worker', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      createInterface({ input: worker.stdout! }).on('line', (line) => line.includes('paysplit listening') && resolve());
    });
    api = await startTestApp({ ROLE: 'api', DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await api.close();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  });

  it('answers writes after the worker has projected them, and reads a just-created order', async () => {
    const { sessionToken } = await signup(api, 'Two Roles Shop');
    const issued = await api.request('POST', '/api/commerce/api-keys', { token: sessionToken, body: { name: 'server', scopes: ['checkout:write'] } });
    expect(issued.status).toBe(201);
    const keys = await api.request('GET', '/api/commerce/api-keys', { token: sessionToken });
    expect(keys.body.data.map((k: { name: string }) => k.name)).toEqual(['server']);

    const created = await api.request('POST', '/api/commerce/integration/checkout', {
      token: issued.body.data.key,
      body: { amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR', returnUrl: 'https://shop.example/done' },
    });
    expect(created.status).toBe(201);
    const status = await api.request('GET', `/api/commerce/checkout/orders/${created.body.data.orderId}/status`);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'OPEN', amountMinorUnits: '2500', currency: 'EUR' });
  });

  it('still answers 404 for an order nobody created', async () => {
    const status = await api.request('GET', '/api/commerce/checkout/orders/ord_doesnotexist/status');
    expect(status.status).toBe(404);
  });
});
