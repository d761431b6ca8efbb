import { signup, startTestApp, TestApp } from '../support/test-app';

/** Sessions last SESSION_TTL_SECONDS of real time; moving the sandbox clock does not age them. */
describe('session expiry', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SESSION_TTL_SECONDS: '2' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps a session through a sandbox clock jump and refuses it once its real lifetime is over', async () => {
    const { sessionToken } = await signup(app, 'Short Lived');
    expect((await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 30 * 86_400 } })).status).toBe(200);
    expect((await app.request('GET', '/api/commerce/api-keys', { token: sessionToken })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const expired = await app.request('GET', '/api/commerce/api-keys', { token: sessionToken });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('UNAUTHENTICATED');
  });
});
