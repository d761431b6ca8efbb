import { signup, startTestApp, TestApp, TestResponse } from '../support/test-app';
import { createSubVendor, errorEnvelope, issueApiKey, outbox } from '../support/split-fixtures';

/**
 * Issue 29 item 9, forgot password over HTTP: a single-use reset link emailed to the sandbox outbox, the same
 * answer for every email, a used or expired link refused with PASSWORD_RESET_INVALID, the old password dead and
 * every session of the account ended. PASSWORD_RESET_TTL_SECONDS is 2 s here so a link can expire in the test.
 */
describe('forgot password over HTTP (issue 29 item 9)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PASSWORD_RESET_TTL_SECONDS: '2' });
  });
  afterAll(async () => {
    await app.close();
  });

  const forgot = (email: unknown) => app.request('POST', '/api/auth/password/forgot', { body: { email } });
  const reset = (token: string, password: string) => app.request('POST', '/api/auth/password/reset', { body: { token, password } });
  const login = (email: string, password: string) => app.request('POST', '/api/auth/login', { body: { email, password } });
  const me = (token: string) => app.request('GET', '/api/auth/me', { token });
  const resetMessages = async (email: string) => (await outbox(app)).filter((m) => m.to === email.toLowerCase() && m.subject === 'Reset your Paysplit password');
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const expectRefused = (response: TestResponse, status: number, code: string) => {
    expect({ status: response.status, body: response.body }).toEqual({ status, body: errorEnvelope(code) });
  };

  it('emails a single-use link; the new password works, the old one and every session end', async () => {
    const owner = await signup(app, 'Forgetful');
    const second = dataOfLogin(await login(owner.email, 'correct horse battery'));
    expect((await me(owner.sessionToken)).status).toBe(200);

    const requested = await forgot(owner.email.toUpperCase());
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({ data: { requested: true } });
    const [message] = await resetMessages(owner.email);
    expect(message!.link).toMatch(/\/dashboard\/reset-password\?token=pwr_/);
    expect(message!.body).toContain('works once, until');

    const events = await app.eventCount();
    const done = await reset(tokenOf(message!.link), 'a brand new passphrase');
    expect({ status: done.status, body: done.body }).toEqual({ status: 200, body: { data: { reset: true } } });
    // user.password_reset, and user.email_verified: the link was emailed to the unconfirmed sign-up's address.
    expect(await app.eventCount()).toBe(events + 2);
    // Every session of the account ended: the signup's and the second login's.
    expectRefused(await me(owner.sessionToken), 401, 'UNAUTHENTICATED');
    expectRefused(await me(second), 401, 'UNAUTHENTICATED');
    expectRefused(await login(owner.email, 'correct horse battery'), 401, 'INVALID_CREDENTIALS');
    const fresh = dataOfLogin(await login(owner.email, 'a brand new passphrase'));
    expect((await me(fresh)).status).toBe(200);

    // Single use: the same link again is refused, and changes nothing.
    expectRefused(await reset(tokenOf(message!.link), 'yet another passphrase'), 401, 'PASSWORD_RESET_INVALID');
    expect((await me(fresh)).status).toBe(200);
    expectRefused(await reset('pwr_nope', 'yet another passphrase'), 401, 'PASSWORD_RESET_INVALID');
  });

  it('answers the same for an unknown email, and sends it nothing', async () => {
    const before = await outbox(app);
    const unknown = await forgot('nobody-here@example.test');
    const owner = await signup(app, 'Known');
    const known = await forgot(owner.email);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    expect(unknown.headers.get('content-length')).toBe(known.headers.get('content-length'));
    const after = await outbox(app);
    expect(after.filter((m) => !before.some((b) => b.id === m.id)).map((m) => m.to)).not.toContain('nobody-here@example.test');
    expect(await resetMessages(owner.email)).toHaveLength(1);
  });

  it('refuses an expired link with PASSWORD_RESET_INVALID and keeps the password', async () => {
    const owner = await signup(app, 'Slow Reader');
    expect((await forgot(owner.email)).status).toBe(202);
    const [message] = await resetMessages(owner.email);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expectRefused(await reset(tokenOf(message!.link), 'too late passphrase'), 401, 'PASSWORD_RESET_INVALID');
    expect((await login(owner.email, 'correct horse battery')).status).toBe(200);
    expect((await me(owner.sessionToken)).status).toBe(200);
  });

  it('a link older than a later reset is dead; the new password follows the signup rules', async () => {
    const owner = await signup(app, 'Two Links');
    await forgot(owner.email);
    await forgot(owner.email);
    const [first, second] = await resetMessages(owner.email);
    const tooShort = await reset(tokenOf(second!.link), 'short');
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.code).toBe('VALIDATION_FAILED');
    // A refused password leaves the link usable.
    expect((await reset(tokenOf(second!.link), 'the second passphrase')).status).toBe(200);
    expectRefused(await reset(tokenOf(first!.link), 'the first passphrase'), 401, 'PASSWORD_RESET_INVALID');
    expect((await login(owner.email, 'the second passphrase')).status).toBe(200);
  });

  it('sends at most 3 links an hour per account, answering the same beyond', async () => {
    const owner = await signup(app, 'Flooded');
    for (let i = 0; i < 5; i++) expect((await forgot(owner.email)).body).toEqual({ data: { requested: true } });
    expect(await resetMessages(owner.email)).toHaveLength(3);
  });

  it('a passwordless contractor account gets a sign-in link instead (it has no password to forget)', async () => {
    const apiKey = await issueApiKey(app, (await signup(app, 'Roster Co')).sessionToken);
    const email = `contractor-${Math.random().toString(36).slice(2)}@example.test`;
    await createSubVendor(app, apiKey, { email });
    expect((await forgot(email)).body).toEqual({ data: { requested: true } });
    const messages = (await outbox(app)).filter((m) => m.to === email);
    expect(messages.map((m) => m.subject)).toContain('Your Paysplit sign-in link');
    expect(await resetMessages(email)).toHaveLength(0);
  });

  function dataOfLogin(response: TestResponse): string {
    expect(response.status).toBe(200);
    return response.body.data.sessionToken as string;
  }
});
