import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signup, startTestApp, TestApp, TestResponse } from '../support/test-app';
import { createSubVendor, errorEnvelope, issueApiKey, outbox } from '../support/split-fixtures';

/** Magic links work once, within MAGIC_LINK_TTL_SECONDS of real time, and their owner can ask for a new one. */
describe('magic links over HTTP', () => {
  let app: TestApp;
  let apiKey: string;
  beforeAll(async () => {
    app = await startTestApp({ MAGIC_LINK_TTL_SECONDS: '2' });
    apiKey = await issueApiKey(app, (await signup(app, 'Link Staffing')).sessionToken);
  });
  afterAll(async () => {
    await app.close();
  });

  const messagesTo = async (email: string) => (await outbox(app)).filter((m) => m.to === email.toLowerCase());
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const redeem = (token: string) => app.request('GET', `/api/auth/magic-link?token=${encodeURIComponent(token)}`);
  const requestLink = (email: unknown) => app.request('POST', '/api/auth/magic-link', { body: { email } });
  const expectRefused = (response: TestResponse, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.body).toEqual(errorEnvelope(code));
  };

  async function passwordlessAccount(): Promise<string> {
    const email = `contractor-${Math.random().toString(36).slice(2)}@example.test`;
    await createSubVendor(app, apiKey, { email });
    return email;
  }

  it('sends a new sign-in link to a passwordless account on request; the first link expires unused', async () => {
    const email = await passwordlessAccount();
    const [welcome] = await messagesTo(email);
    expect(welcome!.body).toContain('works once, until');

    const events = await app.eventCount();
    const requested = await requestLink(email.toUpperCase());
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({ data: { requested: true } });
    expect(await app.eventCount()).toBe(events);
    const messages = await messagesTo(email);
    expect(messages).toHaveLength(2);
    const fresh = messages.find((message) => message.id !== welcome!.id)!;
    expect(fresh.subject).toBe('Your Paysplit sign-in link');

    const signedIn = await redeem(tokenOf(fresh.link));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.sessionToken).toMatch(/^sess_/);

    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expectRefused(await redeem(tokenOf(welcome!.link)), 401, 'UNAUTHENTICATED');
  });

  it('keeps no usable sign-in token in the data directory: links are hashed, outbox messages sealed (issue 15)', async () => {
    const email = await passwordlessAccount();
    const [welcome] = await messagesTo(email);
    const token = tokenOf(welcome!.link);
    expect(token.length).toBeGreaterThan(20);
    const dir = app.platform.config.dataDir;
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect({ file, holdsToken: bytes.includes(token), holdsEmailInBody: bytes.includes(`Sign in to see your payouts`) }).toEqual({
        file,
        holdsToken: false,
        holdsEmailInBody: false,
      });
    }
    expect((await redeem(token)).status).toBe(200);
  });

  it('answers the same, and sends nothing, for an unknown email or an account with a password', async () => {
    const owner = await signup(app, 'Has Password');
    const before = (await outbox(app)).length;
    for (const email of ['nobody@example.test', owner.email]) {
      const requested = await requestLink(email);
      expect(requested.status).toBe(202);
      expect(requested.body).toEqual({ data: { requested: true } });
    }
    expect((await outbox(app)).length).toBe(before);
  });

  it.each([
    ['not an email', 'dana'],
    ['a number', 42],
    ['missing', undefined],
  ])('refuses %s with 400', async (_label, email) => {
    expectRefused(await requestLink(email), 400, 'VALIDATION_FAILED');
  });
});
