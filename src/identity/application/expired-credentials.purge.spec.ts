import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { timerWorkerAt } from '../../../test/support/timer-worker';
import { SqliteReadStore } from '../../platform/read-store/sqlite/sqlite-read-store';
import { ExpiredCredentialsPurge } from './expired-credentials.purge';
import { MAGIC_LINK_REQUESTS, MAGIC_LINKS } from './magic-links';
import { SESSIONS } from './sessions.collection';

describe('ExpiredCredentialsPurge', () => {
  it('deletes expired sessions, magic links and link-request windows on the timer worker pass, and keeps live ones', async () => {
    const store = new SqliteReadStore(join(tempDir('credentials-purge'), 'read.db'));
    const now = Date.parse('2026-11-22T08:00:00.000Z');
    const timers = timerWorkerAt(store, now);
    new ExpiredCredentialsPurge(timers, store).onModuleInit();
    const doc = (id: string, expiresAt: string) => ({ id, userId: 'usr_1', companyId: 'co_1', createdAt: '2026-11-01T00:00:00.000Z', expiresAt });
    await store.putOperational(SESSIONS, doc('expired-session', '2026-11-22T07:59:59.999Z'));
    await store.putOperational(SESSIONS, doc('live-session', '2026-11-22T08:00:00.001Z'));
    await store.putOperational(MAGIC_LINKS, doc('expired-link', '2026-11-15T08:00:00.000Z'));
    await store.putOperational(MAGIC_LINKS, doc('live-link', '2026-11-29T08:00:00.000Z'));
    await store.putOperational(MAGIC_LINK_REQUESTS, { id: 'usr_1', used: 3, expiresAt: '2026-11-22T07:00:00.000Z' });

    await timers.purge();

    const ids = async (collection: string) => (await store.listOperational<{ id: string }>(collection, 10)).map((d) => d.id);
    expect(await ids(SESSIONS)).toEqual(['live-session']);
    expect(await ids(MAGIC_LINKS)).toEqual(['live-link']);
    expect(await ids(MAGIC_LINK_REQUESTS)).toEqual([]);
    await store.close();
  });
});
