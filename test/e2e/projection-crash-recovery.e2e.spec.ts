import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { NewEvent } from '../../src/platform/event-store/event-store.port';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { ApiKeyDoc, CompanyDoc, IdentityReadModelProjection, UserDoc } from '../../src/identity/projections/identity-read-model.projection';
import { applyBatch } from '../../src/platform/projections/projection-batch';
import { Doc, DocumentReader } from '../../src/platform/read-store/document-store.port';
import { tempDir } from '../support/temp-dir';
import { waitUntil } from '../contract/event-store.contract';

const COMPANIES = 12_000;
const MAIN = join(__dirname, '../../dist/src/main.js');

function event(type: string, data: object): NewEvent {
  return { id: randomUUID(), type, data, metadata: { correlationId: randomUUID(), causationId: null, actor: 'seed', occurredAt: '2026-01-01T00:00:00.000Z' } };
}

/** A large log: per company an account stream (2 events) and an API key stream (issued, then some revoked). */
async function seed(file: string): Promise<number> {
  const store = new SqliteEventStore(file);
  for (let i = 0; i < COMPANIES; i++) {
    const companyId = `co_${i}`;
    await store.append(
      `account-${i}`,
      [
        event('company.registered', { companyId, name: `Company ${i}`, registeredAt: '2026-01-01T00:00:00.000Z' }),
        event('user.registered', { userId: `usr_${i}`, companyId, email: `u${i}@example.test`, passwordHash: null, registeredAt: '2026-01-01T00:00:00.000Z' }),
      ],
      'no_stream',
    );
    const key = [
      event('api_key.issued', {
        keyId: `key_${i}`,
        companyId,
        name: 'k',
        scopes: ['split:write'],
        keyHash: `h${i}`,
        lastFour: 'abcd',
        issuedAt: '2026-01-01T00:00:00.000Z',
        issuedBy: `usr_${i}`,
      }),
    ];
    if (i % 3 === 0) key.push(event('api_key.revoked', { keyId: `key_${i}`, companyId, revokedAt: '2026-01-02T00:00:00.000Z' }));
    await store.append(`apikey-key_${i}`, key, 'no_stream');
  }
  const head = (await store.headPosition())!;
  await store.close();
  return head;
}

function startWorker(dataDir: string): ChildProcess {
  return spawn(process.execPath, [MAIN], {
    env: { ...process.env, SANDBOX: 'true', ROLE: 'worker', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

async function dump(store: SqliteReadStore, reader: Pick<DocumentReader, 'find'> = store) {
  const all = <T extends Doc>(collection: string) => reader.find<T>(collection, { sort: [{ field: 'id', direction: 'asc' }] });
  return { companies: await all<CompanyDoc>('companies'), users: await all<UserDoc>('users'), api_keys: await all<ApiKeyDoc>('api_keys') };
}

describe('projection crash recovery', () => {
  it('equals a fresh full replay after a SIGKILL in the middle of projecting a large log', async () => {
    const dataDir = tempDir('crash');
    const head = await seed(join(dataDir, 'events.db'));
    const observer = () => new SqliteReadStore(join(dataDir, 'read.db'));

    const first = startWorker(dataDir);
    let killedAt: number | null = null;
    try {
      await waitUntil(async () => {
        const store = observer();
        try {
          const state = await store.projectionState('identity').catch(() => null);
          killedAt = state?.checkpoint ?? null;
          return killedAt !== null && killedAt > head * 0.2;
        } finally {
          await store.close();
        }
      }, 60_000);
    } finally {
      first.kill('SIGKILL');
      await exited(first);
    }
    expect(first.signalCode).toBe('SIGKILL');
    const afterKill = observer();
    const checkpointAfterKill = (await afterKill.projectionState('identity')).checkpoint!;
    await afterKill.close();
    expect(checkpointAfterKill).toBeGreaterThan(0);
    expect(checkpointAfterKill).toBeLessThan(head);

    const second = startWorker(dataDir);
    try {
      await waitUntil(async () => {
        const store = observer();
        try {
          return (await store.projectionState('identity')).checkpoint === head;
        } finally {
          await store.close();
        }
      }, 120_000);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }

    // The reference: the same projection applied to the whole log in one go, into a fresh read store.
    const events = new SqliteEventStore(join(dataDir, 'events.db'));
    const fresh = new SqliteReadStore(join(tempDir('fresh'), 'read.db'));
    const projection = new IdentityReadModelProjection();
    await fresh.registerProjection(projection.name, projection.collections);
    for (let after: number | undefined; ;) {
      const batch = await events.readAll({ after, maxCount: 5000 });
      if (batch.length === 0) break;
      await applyBatch(fresh, projection, 1, batch);
      after = batch[batch.length - 1]!.position;
    }
    const recovered = observer();
    const expected = await dump(fresh);
    expect(expected.companies).toHaveLength(COMPANIES);
    expect(expected.api_keys.filter((k) => k.revokedAt !== null)).toHaveLength(COMPANIES / 3);
    expect(await dump(recovered)).toEqual(expected);
    await Promise.all([events.close(), fresh.close(), recovered.close()]);
  }, 240_000);
});
