import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir';
import { holdFsyncs, settlesSoon } from '../support/held-fsyncs';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../../src/platform/read-store/sqlite/sqlite-read-store';
import { SqliteWebhookDeliveryStore } from '../../src/webhooks/infrastructure/sqlite-webhook-delivery-store';

/** PRAGMA synchronous: 1 is NORMAL (no fsync at commit in WAL mode), 2 is FULL. */
const FULL = 2;

const connectionOf = (store: object): Database.Database => (store as unknown as { db: Database.Database }).db;

describe('durable commits on every SQLite file (issue 31)', () => {
  it.each([
    ['events.db', (file: string) => new SqliteEventStore(file)],
    ['read.db', (file: string) => new SqliteReadStore(file)],
    ['webhooks.db', (file: string) => new SqliteWebhookDeliveryStore(file)],
  ])('%s runs WAL with synchronous = FULL, so a commit returns only once it is fsynced', async (name, open) => {
    const store = open(join(tempDir('durable'), name));
    try {
      expect(connectionOf(store).pragma('journal_mode', { simple: true })).toBe('wal');
      expect(connectionOf(store).pragma('synchronous', { simple: true })).toBe(FULL);
    } finally {
      await store.close();
    }
  });

  it('events.db: the writer thread that commits the appends (the api process) runs WAL with synchronous = FULL too', async () => {
    const store = new SqliteEventStore(join(tempDir('durable-writer'), 'events.db'), { commitOn: 'writer-thread' });
    try {
      expect(await store.writerPragmas()).toEqual({ journalMode: 'wal', synchronous: FULL });
    } finally {
      await store.close();
    }
  });

  it('webhooks.db: a delivery create, claim or attempt record is acknowledged only once its WAL is fsynced (off the event loop)', async () => {
    const store = new SqliteWebhookDeliveryStore(join(tempDir('durable-deliveries'), 'webhooks.db'));
    const fsyncs = holdFsyncs();
    try {
      const at = '2026-01-01T00:00:00.000Z';
      const created = store.createDeliveries([
        { id: 'd1', endpointId: 'we_1', companyId: 'co_1', eventId: 'evt_1', eventType: 'split.leg_a.approved', body: '{}', nextAttemptAt: at, createdAt: at },
      ]);
      expect(await settlesSoon(created)).toBe(false);
      fsyncs.releaseOne();
      expect(await created).toEqual(['d1']);
      const claimed = store.claimDue(at, 'w1', 0, 1_000, 10, []);
      expect(await settlesSoon(claimed)).toBe(false);
      fsyncs.releaseOne();
      expect((await claimed).map((d) => d.id)).toEqual(['d1']);
      expect(connectionOf(store).pragma('synchronous', { simple: true })).toBe(FULL);
    } finally {
      jest.restoreAllMocks();
      await store.close();
    }
  });

  it('read.db: an operational write (outbox mail, session, idempotency answer) is acknowledged only once its WAL is fsynced (off the event loop)', async () => {
    const store = new SqliteReadStore(join(tempDir('durable-operational'), 'read.db'));
    const fsyncs = holdFsyncs();
    try {
      const put = store.putOperational('outbox', { id: 'm1', to: 'ap@example.com' });
      expect(await settlesSoon(put)).toBe(false);
      fsyncs.releaseOne();
      await put;
      expect(await store.getOperational('outbox', 'm1')).toEqual({ id: 'm1', to: 'ap@example.com' });
      expect(connectionOf(store).pragma('synchronous', { simple: true })).toBe(FULL);
    } finally {
      jest.restoreAllMocks();
      await store.close();
    }
  });

  describe('read.db: projection commits', () => {
    const commit = (projection: string, id: string, beforeDisk: boolean) => ({
      projection,
      generation: 1,
      checkpoint: 7,
      streamRevisions: { [`order-${id}`]: 0 },
      writes: [{ kind: 'put' as const, collection: `${projection}_docs`, doc: { id } }],
      beforeDisk,
    });

    async function storeWith(...projections: string[]): Promise<SqliteReadStore> {
      const store = new SqliteReadStore(join(tempDir('durable-projections'), 'read.db'));
      for (const projection of projections) await store.registerProjection(projection, [{ name: `${projection}_docs` }]);
      return store;
    }

    it("a process manager's commit is answered once fsynced; a live read model's (beforeDisk) once committed and readable, with synced() after the fsync", async () => {
      const store = await storeWith('pm', 'rm');
      const fsyncs = holdFsyncs();
      try {
        const processManager = store.commitProjection(commit('pm', 'a', false));
        const readModel = store.commitProjection(commit('rm', 'b', true));
        expect(await readModel).toBe('committed');
        expect(await store.get('rm_docs', 'b')).toEqual({ id: 'b' });
        expect((await store.projectionState('rm')).checkpoint).toBe(7);
        const synced = store.synced();
        expect(await settlesSoon(processManager)).toBe(false);
        expect(await settlesSoon(synced)).toBe(false);
        fsyncs.releaseOne();
        expect(await processManager).toBe('committed');
        await synced;
      } finally {
        jest.restoreAllMocks();
        await store.close();
      }
    });

    it('when the fsync under a read-model commit fails, synced() rejects', async () => {
      const store = await storeWith('rm');
      const fsyncs = holdFsyncs();
      try {
        expect(await store.commitProjection(commit('rm', 'b', true))).toBe('committed');
        const synced = store.synced();
        fsyncs.failOne();
        await expect(synced).rejects.toThrow('EIO');
      } finally {
        jest.restoreAllMocks();
        await store.close();
      }
    });
  });
});
