import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointBeyondLogError } from '../../src/platform/projections/checkpoints-within-log';
import { createCreator, createEnterprise, createSme, creatorRow, dataOf, Enterprise, newIdempotencyKey, Creator, Sme } from '../support/split-fixtures';
import { tempDir } from '../support/temp-dir';
import { startTestApp, TestApp } from '../support/test-app';
import { answer, jsonOf, ReceivedRequest, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Each SQLite file can lose its last commits on its own (power loss before durable commits, or a copy
 * restored from a backup). The service is run, stopped (snapshot 1), run again with more Splits and
 * stopped (snapshot 2); then each file in turn is put back as of snapshot 1 beside the other two as of
 * snapshot 2, and the service restarted: no event may be skipped and no webhook lost (issue 31).
 */

const FILES = ['events.db', 'read.db', 'webhooks.db'] as const;
type FileName = (typeof FILES)[number];
/** The sandbox's key for sealed webhook secrets, made at first start: the same in every copy. */
const KEY_FILE = 'secrets.key';
const APPROVED = 'split.leg_a.approved';
const FIRST = 3;
const SECOND = 3;

interface World {
  sme: Sme;
  enterprise: Enterprise;
  creator: Creator;
}

/** A stopped service's files, copied aside (with the WAL, should closing have left one). */
function snapshot(dataDir: string, into: string): void {
  mkdirSync(into, { recursive: true });
  for (const file of FILES) {
    copyFileSync(join(dataDir, file), join(into, file));
    if (existsSync(join(dataDir, `${file}-wal`))) copyFileSync(join(dataDir, `${file}-wal`), join(into, `${file}-wal`));
  }
  copyFileSync(join(dataDir, KEY_FILE), join(into, KEY_FILE));
}

/** A data directory with every file from `base` but `older`, which comes from `from`. */
function restored(base: string, from: string, older: FileName): string {
  const dir = tempDir(`file-loss-${older}`);
  for (const file of FILES) {
    const source = join(file === older ? from : base, file);
    copyFileSync(source, join(dir, file));
    if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, join(dir, `${file}-wal`));
  }
  copyFileSync(join(base, KEY_FILE), join(dir, KEY_FILE));
  return dir;
}

function start(dataDir: string): Promise<TestApp> {
  return startTestApp({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
}

async function createSplits(app: TestApp, world: World, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey(`${label}-${i}`),
      roster: [creatorRow(world.creator, String(10_000 + i))],
    };
    const created = dataOf(await app.request('POST', '/api/commerce/integration/splits', { token: world.sme.apiKey, body }), 201);
    expect(created.status).toBe('APPROVED');
    ids.push(created.id);
  }
  return ids;
}

function deliveryIdsIn(webhooksDb: string): string[] {
  const db = new Database(webhooksDb, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT id FROM deliveries ORDER BY id').all() as { id: string }[]).map((row) => row.id);
  } finally {
    db.close();
  }
}

const splitsIn = (requests: ReceivedRequest[]) => new Set(requests.map((request) => jsonOf(request).data.splitId as string));

describe('losing the last commits of one SQLite file', () => {
  let receiver: WebhookReceiver;
  let world: World;
  let snapshot1: string;
  let snapshot2: string;
  let firstSplits: string[];
  let secondSplits: string[];
  let deliveriesAtSnapshot2: string[];

  beforeAll(async () => {
    receiver = await startWebhookReceiver(answer(200));
    const dataDir = tempDir('file-loss');
    let app = await start(dataDir);
    const [sme, enterprise, creator] = await Promise.all([createSme(app, 'Loss Staffing'), createEnterprise(app, 'Loss Enterprise'), createCreator(app)]);
    world = { sme, enterprise, creator };
    dataOf(await app.request('PUT', `/api/commerce/split-settings/sme/${sme.companyId}`, { token: enterprise.sessionToken, body: { autoAccept: true, coverFees: false } }), 200);
    dataOf(await app.request('POST', '/api/commerce/webhooks/endpoints', { token: sme.sessionToken, body: { url: `${receiver.url}/hooks`, eventTypes: [APPROVED] } }), 201);
    firstSplits = await createSplits(app, world, FIRST, 'first');
    await receiver.waitFor((requests) => requests.length >= FIRST, 20_000, 'the first deliveries');
    await app.eventCount();
    await app.close();
    snapshot1 = join(tempDir('file-loss-snapshots'), '1');
    snapshot(dataDir, snapshot1);

    app = await start(dataDir);
    secondSplits = await createSplits(app, world, SECOND, 'second');
    await receiver.waitFor((requests) => splitsIn(requests).size >= FIRST + SECOND, 20_000, 'the second deliveries');
    await app.eventCount();
    await app.close();
    snapshot2 = join(tempDir('file-loss-snapshots'), '2');
    snapshot(dataDir, snapshot2);
    deliveriesAtSnapshot2 = deliveryIdsIn(join(snapshot2, 'webhooks.db'));
    expect(deliveriesAtSnapshot2).toHaveLength(FIRST + SECOND);
    expect(deliveryIdsIn(join(snapshot1, 'webhooks.db'))).toHaveLength(FIRST);
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
  });

  it('refuses to start when events.db lost commits read.db had applied, saying so', async () => {
    const dataDir = restored(snapshot2, snapshot1, 'events.db');
    const starting = start(dataDir);
    await expect(starting).rejects.toBeInstanceOf(CheckpointBeyondLogError);
    await expect(starting).rejects.toThrow(/read store is ahead of the event log .*Restore the event store \(events\.db\)/);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('re-applies what read.db lost: every Split readable, no delivery made twice, new events still projected', async () => {
    const dataDir = restored(snapshot2, snapshot1, 'read.db');
    const app = await start(dataDir);
    try {
      await app.eventCount();
      for (const id of [...firstSplits, ...secondSplits]) {
        expect(dataOf(await app.request('GET', `/api/commerce/integration/splits/${id}`, { token: world.sme.apiKey }), 200).id).toBe(id);
      }
      const [third] = await createSplits(app, world, 1, 'after-read-loss');
      await app.eventCount();
      expect(dataOf(await app.request('GET', `/api/commerce/integration/splits/${third}`, { token: world.sme.apiKey }), 200).id).toBe(third);
      const status = await app.platform.engine.status();
      expect(status.filter((s) => s.lag !== 0 || s.status !== 'running')).toEqual([]);
    } finally {
      await app.close();
    }
    // Reprocessing the events read.db lost created no second delivery for any of them: one per Split.
    expect(deliveryIdsIn(join(dataDir, 'webhooks.db'))).toHaveLength(FIRST + SECOND + 1);
  }, 60_000);

  it('re-dispatches what webhooks.db lost behind the dispatcher checkpoint: every webhook still arrives', async () => {
    const dataDir = restored(snapshot2, snapshot1, 'webhooks.db');
    const before = receiver.requests.length;
    const app = await start(dataDir);
    try {
      await receiver.waitFor((requests) => splitsIn(requests.slice(before)).size >= SECOND, 20_000, 'the deliveries webhooks.db lost, sent again');
      expect(splitsIn(receiver.requests.slice(before))).toEqual(new Set(secondSplits));
    } finally {
      await app.close();
    }
    expect(deliveryIdsIn(join(dataDir, 'webhooks.db'))).toEqual(deliveriesAtSnapshot2);
  }, 60_000);
});
