import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { SystemClock } from '../../platform/clock/clock';
import { loadConfig } from '../../platform/config/app-config';
import { SqliteReadStore } from '../../platform/read-store/sqlite/sqlite-read-store';
import { MagicLinks } from './magic-links';
import { SessionIssuer } from './session-issuer';

describe('MagicLinks', () => {
  it('lets only one of two concurrent redeems of a link sign in', async () => {
    const store = new SqliteReadStore(join(tempDir('magic'), 'read.db'));
    const clock = new SystemClock();
    const config = loadConfig({ SANDBOX: 'true' });
    const links = new MagicLinks(store, clock, config, new SessionIssuer(store, clock, clock, config));
    await links.send('usr_1', 'co_1', 'dana@example.test');
    const [message] = await links.outbox();
    const token = new URL(message!.link).searchParams.get('token')!;
    const outcomes = await Promise.allSettled([links.redeem(token), links.redeem(token)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    await store.close();
  });
});
