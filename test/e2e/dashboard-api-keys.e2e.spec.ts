import { signup, startTestApp, TestApp } from '../support/test-app';
import { issueApiKey } from '../support/split-fixtures';

/** The dashboard's key list: prefix to tell keys apart, and "last used" recorded by the API. */
describe('API key prefix and last use over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const keysOf = async (sessionToken: string) => (await app.request('GET', '/api/commerce/api-keys', { token: sessionToken })).body.data as any[];

  it('shows a prefix and records lastUsedAt when the key authenticates a call, on the sandbox clock', async () => {
    const owner = await signup(app, 'Used Keys');
    const key = await issueApiKey(app, owner.sessionToken);
    const idle = await issueApiKey(app, owner.sessionToken);
    const [idleRow, keyRow] = await keysOf(owner.sessionToken);
    expect(keyRow).toMatchObject({ prefix: key.slice(0, 11), lastFour: key.slice(-4), lastUsedAt: null });
    expect(keyRow.prefix).toMatch(/^sk_[A-Za-z0-9_-]{8}$/);
    expect(idleRow.prefix).toBe(idle.slice(0, 11));

    const clock = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    expect((await app.request('GET', '/api/commerce/integration/sub-vendors', { token: key })).status).toBe(200);
    const [idleAfter, used] = await keysOf(owner.sessionToken);
    expect(used.lastUsedAt >= clock).toBe(true);
    expect(idleAfter.lastUsedAt).toBeNull();

    // Coarse by design: within a minute (real time) another use is not written again, even an hour of sandbox time later.
    await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 3600 } });
    expect((await app.request('GET', '/api/commerce/integration/sub-vendors', { token: key })).status).toBe(200);
    expect((await keysOf(owner.sessionToken))[1].lastUsedAt).toBe(used.lastUsedAt);

    // Another company's list never shows this key, used or not.
    const other = await signup(app, 'Other Keys');
    expect(await keysOf(other.sessionToken)).toEqual([]);
  });

  it('an unknown or revoked key records nothing', async () => {
    const owner = await signup(app, 'Revoked Keys');
    const key = await issueApiKey(app, owner.sessionToken);
    const [row] = await keysOf(owner.sessionToken);
    expect((await app.request('DELETE', `/api/commerce/api-keys/${row.id}`, { token: owner.sessionToken })).status).toBe(200);
    expect((await app.request('GET', '/api/commerce/integration/sub-vendors', { token: key })).status).toBe(401);
    expect((await keysOf(owner.sessionToken))[0].lastUsedAt).toBeNull();
  });
});
