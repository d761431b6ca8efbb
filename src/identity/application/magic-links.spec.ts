import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { Clock, SystemClock } from '../../platform/clock/clock';
import { loadConfig } from '../../platform/config/app-config';
import { SqliteReadStore } from '../../platform/read-store/sqlite/sqlite-read-store';
import { MAGIC_LINK_REQUESTS_PER_WINDOW, MAGIC_LINKS, MagicLinks } from './magic-links';
import { Outbox } from './outbox';

/** Real time the test moves by hand. */
class HandClock implements Clock {
  constructor(private at = Date.parse('2026-11-22T08:00:00.000Z')) {}
  now(): Date {
    return new Date(this.at);
  }
  advance(seconds: number): void {
    this.at += seconds * 1000;
  }
}

async function setUp() {
  const dir = tempDir('magic');
  const store = new SqliteReadStore(join(dir, 'read.db'));
  const clock = new SystemClock();
  const realClock = new HandClock();
  const config = loadConfig({ SANDBOX: 'true', MAGIC_LINK_TTL_SECONDS: '3600', DATA_DIR: dir });
  const links = new MagicLinks(store, store, clock, realClock, config, new Outbox(store, config));
  // The outbox is ordered by message id, and two messages of one millisecond may come in either order.
  const seen = new Set<string>();
  const lastToken = async () => {
    const fresh = (await links.outbox()).filter((message) => !seen.has(message.id));
    expect(fresh).toHaveLength(1);
    seen.add(fresh[0]!.id);
    return new URL(fresh[0]!.link).searchParams.get('token')!;
  };
  return { store, realClock, links, lastToken };
}

describe('MagicLinks', () => {
  it('lets only one of two concurrent claims of a link go on', async () => {
    const { store, links, lastToken } = await setUp();
    await links.send('usr_1', 'co_1', 'dana@example.test');
    const token = await lastToken();
    const outcomes = await Promise.allSettled([links.claim(token), links.claim(token)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    await store.close();
  });

  it('refuses a link once MAGIC_LINK_TTL_SECONDS of real time have passed, and forgets it', async () => {
    const { store, realClock, links, lastToken } = await setUp();
    await links.send('usr_1', 'co_1', 'dana@example.test');
    const token = await lastToken();
    realClock.advance(3599);
    await links.send('usr_1', 'co_1', 'dana@example.test');
    const second = await lastToken();
    expect((await links.claim(second)).userId).toBe('usr_1');
    realClock.advance(1);
    await expect(links.claim(token)).rejects.toMatchObject({ code: 'MAGIC_LINK_INVALID' });
    expect(await store.listOperational(MAGIC_LINKS, 10)).toEqual([]);
    await store.close();
  });

  it('sends at most MAGIC_LINK_REQUESTS_PER_WINDOW links on request per account per hour, even to concurrent requests', async () => {
    const { store, realClock, links } = await setUp();
    await store.registerProjection('identity', [{ name: 'users', indexes: [['email']] }]);
    const user = { id: 'usr_1', companyId: 'co_1', email: 'dana@example.test', passwordHash: null, createdAt: '2026-11-01T00:00:00.000Z' };
    await store.commitProjection({ projection: 'identity', generation: 1, checkpoint: 1, streamRevisions: {}, writes: [{ kind: 'put', collection: 'users', doc: user }] });
    const sent = async () => (await links.outbox()).length;

    await Promise.all(Array.from({ length: MAGIC_LINK_REQUESTS_PER_WINDOW + 5 }, () => links.sendOnRequest('Dana@Example.test')));
    expect(await sent()).toBe(MAGIC_LINK_REQUESTS_PER_WINDOW);
    await links.sendOnRequest('dana@example.test');
    expect(await sent()).toBe(MAGIC_LINK_REQUESTS_PER_WINDOW);
    realClock.advance(3600);
    await links.sendOnRequest('dana@example.test');
    expect(await sent()).toBe(MAGIC_LINK_REQUESTS_PER_WINDOW + 1);
    await store.close();
  });
});
