import { createCompany, dataOf, errorEnvelope, issueApiKey, uniqueEmail } from '../support/split-fixtures';
import { invitationToken, invitedMember, Member, RoleName } from '../support/team-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 30 items 1-2: members join by an emailed invitation, and what a session may do depends on its
 * member's role. The route walk reads every operation of the OpenAPI document that takes a session, so a
 * route added later is called as every role without editing this test.
 */

type Operation = { security?: Record<string, string[]>[]; 'x-roles'?: string[]; parameters?: { in: string; name: string }[] };

const ROLE_NAMES: RoleName[] = ['owner', 'admin', 'developer', 'finance', 'viewer'];
/** The sandbox's own tools stand in for a mail server, a clock and a bank: not a company's routes. */
const SANDBOX_TOOLS = /^\/api\/sandbox\//;
/** Ends the session it is called with: called last, by each role, in its own test below. */
const LOGOUT = '/api/auth/logout';
/** Writes every member may make: signing out and switching company. */
const ANY_MEMBER_WRITES = new Set([LOGOUT, '/api/auth/session/company']);
const isWrite = (method: string) => method !== 'get';

describe('teams and roles (issue 30)', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCompany>>;
  const members = {} as Record<RoleName, Member>;

  beforeAll(async () => {
    app = await startTestApp();
    owner = await createCompany(app, 'Teamwork Staffing');
    members.owner = { email: owner.email, userId: owner.userId, sessionToken: owner.sessionToken, role: 'owner' };
    for (const role of ['admin', 'developer', 'finance', 'viewer'] as const) members[role] = await invitedMember(app, owner.sessionToken, role);
  }, 60_000);

  afterAll(async () => {
    await app.close();
  });

  it('a company from before roles keeps working: its only user is the owner', async () => {
    const me = dataOf(await app.request('GET', '/api/auth/me', { token: owner.sessionToken }), 200);
    expect(me).toMatchObject({ role: 'owner', companies: [{ companyId: owner.companyId, companyName: 'Teamwork Staffing', role: 'owner' }] });
  });

  it('an invited person joins by the emailed link, with the role it was invited as', async () => {
    const list = dataOf(await app.request('GET', '/api/commerce/members', { token: members.viewer.sessionToken }), 200);
    expect(list.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual(ROLE_NAMES.map((role) => [members[role].email, role]));
    for (const role of ROLE_NAMES) {
      const me = dataOf(await app.request('GET', '/api/auth/me', { token: members[role].sessionToken }), 200);
      expect(me).toMatchObject({ companyId: owner.companyId, role, kind: 'company' });
    }
    // The link works once, and the invitation is no longer pending.
    expect(dataOf(await app.request('GET', '/api/commerce/members/invitations', { token: owner.sessionToken }), 200)).toEqual([]);
    const reuse = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: await invitationToken(app, members.finance.email) } });
    expect(reuse.status).toBe(401);
  });

  it('a pending invitation is listed with who invited, and a withdrawn one signs nobody in', async () => {
    const email = uniqueEmail('withdrawn');
    const sent = dataOf(await app.request('POST', '/api/commerce/members', { token: owner.sessionToken, body: { email, role: 'viewer' } }), 201);
    const pending = dataOf(await app.request('GET', '/api/commerce/members/invitations', { token: owner.sessionToken }), 200);
    expect(pending).toEqual([expect.objectContaining({ inviteId: sent.inviteId, email, role: 'viewer', status: 'pending', invitedBy: owner.email })]);
    dataOf(await app.request('DELETE', `/api/commerce/members/invitations/${sent.inviteId}`, { token: owner.sessionToken }), 200);
    const signIn = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: await invitationToken(app, email) } });
    expect(signIn.status).toBe(401);
    expect(signIn.body).toEqual(errorEnvelope('MAGIC_LINK_INVALID'));
  });

  it('a person with an account of its own joins after accepting, belongs to both companies and picks one', async () => {
    const other = await createCompany(app, 'Other Shop');
    dataOf(await app.request('POST', '/api/commerce/members', { token: owner.sessionToken, body: { email: other.email, role: 'finance' } }), 201);
    // Not a member before following the link.
    const early = await app.request('POST', '/api/auth/session/company', { token: other.sessionToken, body: { companyId: owner.companyId } });
    expect(early.status).toBe(404);
    expect(early.body).toEqual(errorEnvelope('NOT_A_MEMBER'));
    const joined = dataOf(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: await invitationToken(app, other.email) } }), 200);
    expect(joined).toMatchObject({ companyId: owner.companyId, role: 'finance' });
    expect(joined.companies).toEqual([
      { companyId: other.companyId, companyName: 'Other Shop', role: 'owner' },
      { companyId: owner.companyId, companyName: 'Teamwork Staffing', role: 'finance' },
    ]);
    // Password sign-in picks its own company unless it asks for another one.
    const login = (companyId?: string) =>
      app.request('POST', '/api/auth/login', { body: { email: other.email, password: 'correct horse battery', ...(companyId ? { companyId } : {}) } });
    expect(dataOf(await login(), 200)).toMatchObject({ companyId: other.companyId, role: 'owner' });
    expect(dataOf(await login(owner.companyId), 200)).toMatchObject({ companyId: owner.companyId, role: 'finance' });
    const foreign = await createCompany(app, 'Not Mine');
    expect((await login(foreign.companyId)).body).toEqual(errorEnvelope('NOT_A_MEMBER'));
    // The same session switches between them; what it may do follows the company's role.
    const session = other.sessionToken;
    expect(dataOf(await app.request('POST', '/api/auth/session/company', { token: session, body: { companyId: owner.companyId } }), 200)).toMatchObject({ role: 'finance' });
    expect(dataOf(await app.request('GET', '/api/auth/me', { token: session }), 200)).toMatchObject({ companyId: owner.companyId, role: 'finance' });
    expect((await app.request('POST', '/api/commerce/api-keys', { token: session, body: { name: 'x', scopes: ['split:write'] } })).body).toEqual(errorEnvelope('ROLE_FORBIDDEN'));
    dataOf(await app.request('POST', '/api/auth/session/company', { token: session, body: { companyId: other.companyId } }), 200);
    dataOf(await app.request('POST', '/api/commerce/api-keys', { token: session, body: { name: 'x', scopes: ['split:write'] } }), 201);
    const switchForeign = await app.request('POST', '/api/auth/session/company', { token: session, body: { companyId: foreign.companyId } });
    expect(switchForeign.body).toEqual(errorEnvelope('NOT_A_MEMBER'));
  });

  it('a role change applies to the next call; a removed member is signed out at once; a company keeps an owner', async () => {
    const temp = await invitedMember(app, owner.sessionToken, 'viewer');
    expect((await app.request('POST', '/api/commerce/api-keys', { token: temp.sessionToken, body: { name: 'k', scopes: ['split:write'] } })).status).toBe(403);
    expect(dataOf(await app.request('PATCH', `/api/commerce/members/${temp.userId}`, { token: owner.sessionToken, body: { role: 'developer' } }), 200)).toEqual({
      userId: temp.userId,
      role: 'developer',
    });
    dataOf(await app.request('POST', '/api/commerce/api-keys', { token: temp.sessionToken, body: { name: 'k', scopes: ['split:write'] } }), 201);
    dataOf(await app.request('DELETE', `/api/commerce/members/${temp.userId}`, { token: owner.sessionToken }), 200);
    const after = await app.request('GET', '/api/commerce/members', { token: temp.sessionToken });
    expect(after.status).toBe(401);
    // Only the owner manages members (an admin is everything but members and ownership).
    const byAdmin = await app.request('PATCH', `/api/commerce/members/${members.viewer.userId}`, { token: members.admin.sessionToken, body: { role: 'finance' } });
    expect(byAdmin.body).toEqual(errorEnvelope('ROLE_FORBIDDEN'));
    const lastOwner = await app.request('PATCH', `/api/commerce/members/${owner.userId}`, { token: owner.sessionToken, body: { role: 'admin' } });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body).toEqual(errorEnvelope('LAST_OWNER'));
    expect((await app.request('DELETE', `/api/commerce/members/${owner.userId}`, { token: owner.sessionToken })).body).toEqual(errorEnvelope('LAST_OWNER'));
    expect((await app.request('DELETE', `/api/commerce/members/usr_nobody`, { token: owner.sessionToken })).body).toEqual(errorEnvelope('MEMBER_NOT_FOUND'));
    expect((await app.request('POST', '/api/commerce/members', { token: owner.sessionToken, body: { email: members.finance.email, role: 'viewer' } })).body).toEqual(
      errorEnvelope('MEMBER_ALREADY_EXISTS'),
    );
  });

  it('read-only API key scopes read and write nothing; a write scope keeps reading', async () => {
    const reader = await issueApiKey(app, owner.sessionToken, ['split:read', 'payout:read'], 'auditor');
    const writer = await issueApiKey(app, owner.sessionToken, ['split:write'], 'server');
    dataOf(await app.request('GET', '/api/commerce/integration/splits', { token: reader }), 200);
    dataOf(await app.request('GET', '/api/commerce/integration/splits', { token: writer }), 200);
    dataOf(await app.request('GET', '/api/commerce/integration/payout-embed/sessions', { token: reader }), 200);
    const write = await app.request('POST', '/api/commerce/integration/splits', { token: reader, body: {} });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(errorEnvelope('MISSING_SCOPE'));
    expect((await app.request('POST', '/api/commerce/integration/payout-embed/sessions', { token: reader, body: {} })).body).toEqual(errorEnvelope('MISSING_SCOPE'));
  });

  it('calls every session route of the OpenAPI document as every role: ROLE_FORBIDDEN exactly where the route does not admit the role', async () => {
    const openapi = (await app.request('GET', '/docs/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    const routes = Object.entries(openapi.paths)
      .filter(([path]) => !SANDBOX_TOOLS.test(path) && path !== LOGOUT)
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))
      .filter(({ operation }) => (operation.security ?? []).some((requirement) => 'session' in requirement));
    expect(routes.length).toBeGreaterThan(40);

    const wrong: string[] = [];
    for (const { path, method, operation } of routes) {
      const admitted = operation['x-roles'];
      if (!admitted) {
        wrong.push(`${method.toUpperCase()} ${path}: no x-roles`);
        continue;
      }
      // The issue's rules, independent of what the routes declare.
      if (!admitted.includes('owner')) wrong.push(`${method.toUpperCase()} ${path}: the owner may do everything`);
      if (isWrite(method) && admitted.includes('viewer') && !ANY_MEMBER_WRITES.has(path)) wrong.push(`${method.toUpperCase()} ${path}: a viewer only reads`);
      if (path.startsWith('/api/commerce/members') && isWrite(method) && admitted.join() !== 'owner') wrong.push(`${method.toUpperCase()} ${path}: only an owner manages members`);
      if (/webhooks|api-keys/.test(path) && isWrite(method) && admitted.includes('finance')) wrong.push(`${method.toUpperCase()} ${path}: finance has no keys or webhooks`);
      const movesMoney = /approve|reject|payout|settle-margin|withdrawals/.test(path) && isWrite(method);
      if (movesMoney && admitted.includes('developer')) wrong.push(`${method.toUpperCase()} ${path}: a developer moves no money`);
      if (movesMoney && !admitted.includes('finance')) wrong.push(`${method.toUpperCase()} ${path}: finance moves money`);
      if (/webhooks|api-keys/.test(path) && isWrite(method) && !admitted.includes('developer'))
        wrong.push(`${method.toUpperCase()} ${path}: a developer manages keys and webhooks`);

      const url = path.replace(/\{[^}]+\}/g, 'x_unknown');
      for (const role of ROLE_NAMES) {
        // An empty body: a role that is admitted gets past the guard and stops at validation or a 404, changing nothing.
        const response = await app.request(method.toUpperCase(), url, { token: members[role].sessionToken, ...(isWrite(method) ? { body: {} } : {}) });
        const forbidden = response.status === 403 && response.body?.error?.code === 'ROLE_FORBIDDEN';
        if (admitted.includes(role) === forbidden)
          wrong.push(`${role} ${method.toUpperCase()} ${url} -> ${response.status} ${response.body?.error?.code ?? ''} (x-roles: ${admitted.join(', ')})`);
        if (response.status === 401) wrong.push(`${role} ${method.toUpperCase()} ${url} -> 401: the session must still work`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('every member may sign out', async () => {
    for (const role of ROLE_NAMES) {
      dataOf(await app.request('POST', LOGOUT, { token: members[role].sessionToken }), 200);
      expect((await app.request('GET', '/api/auth/me', { token: members[role].sessionToken })).status).toBe(401);
    }
  });
});
