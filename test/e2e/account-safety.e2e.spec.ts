import { signup, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 24: accounts that cannot be taken over or locked out by someone else. Each test failed on the
 * code before the issue.
 */
describe('login limits count failures only, per real client address (issue 24 item 5)', () => {
  describe('without TRUST_PROXY (the default)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => {
      await app.close();
    });
    const login = (email: string, password: string, headers: Record<string, string> = {}) => app.request('POST', '/api/auth/login', { body: { email, password }, headers });

    it('a right password never counts: an account signs in 15 times in a row within the window', async () => {
      const { email } = await signup(app, 'Busy Integration');
      for (let i = 0; i < 15; i++) expect((await login(email, 'correct horse battery')).status).toBe(200);
      // Failures still count, from zero: ten are refused with 401, the next attempt is limited.
      for (let i = 0; i < 10; i++) expect((await login(email, 'wrong password!')).status).toBe(401);
      const limited = await login(email, 'correct horse battery');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
    });

    it('ignores X-Forwarded-For: a client cannot step around the per-IP limit by sending one', async () => {
      // Each attempt claims another address; all come from 127.0.0.1, so the 100-a-window IP limit is hit
      // within 101 attempts whatever the earlier tests of this app used.
      const statuses: number[] = [];
      for (let i = 0; i <= 100 && !statuses.includes(429); i++) {
        statuses.push((await login(`nobody-${i}@example.test`, 'guess', { 'x-forwarded-for': `198.51.100.${i % 250}` })).status);
      }
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    });
  });

  describe('with TRUST_PROXY=true (behind a load balancer that sets X-Forwarded-For)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ TRUST_PROXY: 'true' });
    });
    afterAll(async () => {
      await app.close();
    });
    const login = (email: string, forwardedFor: string) =>
      app.request('POST', '/api/auth/login', { body: { email, password: 'guess' }, headers: { 'x-forwarded-for': forwardedFor } });

    it('limits each client address on its own: one noisy client does not lock out everyone behind the balancer', async () => {
      for (let i = 0; i < 100; i++) expect((await login(`nobody-${i}@example.test`, '203.0.113.7')).status).toBe(401);
      expect((await login('nobody-100@example.test', '203.0.113.7')).status).toBe(429);
      expect((await login('nobody-101@example.test', '203.0.113.8')).status).toBe(401);
      const owner = await signup(app, 'Behind The Balancer');
      const signedIn = await app.request('POST', '/api/auth/login', {
        body: { email: owner.email, password: 'correct horse battery' },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(signedIn.status).toBe(200);
    });
  });
});
