import { signup, startTestApp, TestApp } from '../support/test-app';

describe('identity over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('signs up a company, logs in and out', async () => {
    const email = 'owner@acme.test';
    const created = await app.request('POST', '/api/auth/signup', { body: { companyName: 'Acme', email, password: 'correct horse battery' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(['companies', 'companyId', 'role', 'sessionToken', 'userId']);
    expect(created.body.data.role).toBe('owner');
    expect(created.body.data.companyId).toMatch(/^co_[0-9a-z]{26}$/);
    expect(created.body.data.userId).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(created.body.data.sessionToken).toMatch(/^sess_/);

    const login = await app.request('POST', '/api/auth/login', { body: { email: 'OWNER@acme.test', password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ companyId: created.body.data.companyId, userId: created.body.data.userId });

    const wrong = await app.request('POST', '/api/auth/login', { body: { email, password: 'wrong password!' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');

    const token = login.body.data.sessionToken;
    expect((await app.request('GET', '/api/commerce/api-keys', { token })).status).toBe(200);
    expect((await app.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    const after = await app.request('GET', '/api/commerce/api-keys', { token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHENTICATED');
    expect((await app.request('GET', '/api/commerce/api-keys', { token: created.body.data.sessionToken })).status).toBe(200);
  });

  it('refuses a second signup with the same email and appends nothing', async () => {
    const first = await signup(app, 'Twice');
    const before = await app.eventCount();
    const again = await app.request('POST', '/api/auth/signup', { body: { companyName: 'Other', email: first.email, password: 'correct horse battery' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: { code: 'EMAIL_ALREADY_REGISTERED', message: expect.any(String), details: [] } });
    expect(await app.eventCount()).toBe(before);
  });

  it('issues API keys shown once, stores only hashes, lists without secrets and revokes', async () => {
    const owner = await signup(app, 'Keys');
    const issued = await app.request('POST', '/api/commerce/api-keys', {
      token: owner.sessionToken,
      body: { name: 'server', scopes: ['split:write', 'checkout:write'] },
    });
    expect(issued.status).toBe(201);
    const key = issued.body.data;
    expect(key).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'server',
      key: expect.stringMatching(/^sk_/),
      scopes: ['checkout:write', 'split:write'],
      createdAt: expect.any(String),
    });

    const log = await app.platform.events.readAll({ maxCount: 10_000 });
    expect(JSON.stringify(log)).not.toContain(key.key);
    expect(JSON.stringify(log)).not.toContain(owner.sessionToken);

    const listed = await app.request('GET', '/api/commerce/api-keys', { token: owner.sessionToken });
    expect(listed.body.data).toEqual([
      {
        id: key.id,
        name: 'server',
        scopes: ['checkout:write', 'split:write'],
        prefix: key.key.slice(0, 11),
        lastFour: key.key.slice(-4),
        createdAt: key.createdAt,
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    expect(listed.text).not.toContain(key.key);

    // A valid API key on a session-only call is the wrong kind of credential: 403.
    const wrongKind = await app.request('GET', '/api/commerce/api-keys', { token: key.key });
    expect(wrongKind.status).toBe(403);
    expect(wrongKind.body.error.code).toBe('CREDENTIAL_NOT_ALLOWED');

    const revoked = await app.request('DELETE', `/api/commerce/api-keys/${key.id}`, { token: owner.sessionToken });
    expect(revoked.status).toBe(200);
    // Revoked: the key is no longer a credential at all, so 401 rather than 403.
    const afterRevoke = await app.request('GET', '/api/commerce/api-keys', { token: key.key });
    expect(afterRevoke.status).toBe(401);
    const relisted = await app.request('GET', '/api/commerce/api-keys', { token: owner.sessionToken });
    expect(relisted.body.data[0].revokedAt).toEqual(expect.any(String));
  });

  it("answers 404 for another company's key and for unknown keys", async () => {
    const a = await signup(app, 'Alpha');
    const b = await signup(app, 'Beta');
    const key = (await app.request('POST', '/api/commerce/api-keys', { token: a.sessionToken, body: { name: 'k', scopes: ['split:write'] } })).body.data;
    const before = await app.eventCount();
    const cross = await app.request('DELETE', `/api/commerce/api-keys/${key.id}`, { token: b.sessionToken });
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe('API_KEY_NOT_FOUND');
    expect((await app.request('DELETE', '/api/commerce/api-keys/key_nope', { token: b.sessionToken })).status).toBe(404);
    expect(await app.eventCount()).toBe(before);
    expect((await app.request('GET', '/api/commerce/api-keys', { token: b.sessionToken })).body.data).toEqual([]);
  });

  it('answers 401 for missing, malformed and unknown credentials', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer sess_unknown' },
      { authorization: 'Bearer sk_unknown' },
      { authorization: 'Bearer x' },
    ];
    for (const headers of variants) {
      const response = await app.request('GET', '/api/commerce/api-keys', { headers });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHENTICATED');
    }
  });
});
