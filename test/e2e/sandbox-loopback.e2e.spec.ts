import { startTestApp, TestApp } from '../support/test-app';
import { createCompany, dataOf, errorEnvelope, issueApiKey } from '../support/split-fixtures';
import { checkoutBody, createCheckout } from '../browser/checkout-fixtures';
import { createPlatform, createSession, sessionBody } from '../support/payout-embed-fixtures';

/**
 * Issue 29 item 10: with SANDBOX=true a developer tries a checkout redirect and a Payout Embed frame against its own
 * machine (http on a loopback host); outside the sandbox returnUrl and allowed origins stay https only. The sandbox
 * clock says how far it runs ahead of real time (the dashboard's sandbox banner shows it).
 */
describe('Loopback http in the sandbox only (issue 29 item 10)', () => {
  describe('SANDBOX=true', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => {
      await app.close();
    });

    it('takes an http://localhost returnUrl for a checkout, and still refuses http on another host', async () => {
      const company = await createCompany(app, 'Local Shop');
      const apiKey = await issueApiKey(app, company.sessionToken, ['checkout:write']);
      for (const returnUrl of ['http://localhost:3000/thanks', 'http://127.0.0.1:8080/done', 'http://[::1]:5173/back']) {
        const created = await createCheckout(app, apiKey, checkoutBody({ returnUrl }));
        expect({ returnUrl, status: created.status }).toEqual({ returnUrl, status: 201 });
      }
      const refused = await createCheckout(app, apiKey, checkoutBody({ returnUrl: 'http://shop.example/thanks' }));
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual([{ field: 'returnUrl', message: 'returnUrl must be an absolute https:// URL (in the sandbox, http://localhost also works)' }]);
    });

    it('takes http loopback origins and returnUrl for a Payout Embed session', async () => {
      const platform = await createPlatform(app, 'Local Platform');
      const session = dataOf(
        await createSession(app, platform.apiKey, sessionBody({ allowedOrigins: ['http://localhost:5173', 'https://platform.example'], returnUrl: 'http://localhost:5173/done' })),
        201,
      );
      expect(session.allowedOrigins).toEqual(['http://localhost:5173', 'https://platform.example']);
      const refused = await createSession(app, platform.apiKey, sessionBody({ allowedOrigins: ['http://platform.example'] }));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(errorEnvelope('VALIDATION_FAILED'));
    });

    it('says how far the sandbox clock is ahead of real time', async () => {
      expect(dataOf(await app.request('GET', '/api/sandbox/clock'), 200).offsetSeconds).toBe(0);
      const advanced = dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 90_000 } }), 200);
      // Real time passes while the advance runs, so the offset is a little under what was asked.
      expect(advanced.offsetSeconds).toBeGreaterThan(89_900);
      expect(advanced.offsetSeconds).toBeLessThanOrEqual(90_000);
      expect(dataOf(await app.request('GET', '/api/sandbox/clock'), 200).offsetSeconds).toBe(advanced.offsetSeconds);
    });
  });

  describe('SANDBOX=false', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ SANDBOX: 'false', SECRETS_KEY: 'ab'.repeat(32) });
    });
    afterAll(async () => {
      await app.close();
    });

    it('refuses http://localhost as a checkout returnUrl, a Payout Embed origin or returnUrl, and has no sandbox clock', async () => {
      const company = await createCompany(app, 'Live Shop');
      const checkoutKey = await issueApiKey(app, company.sessionToken, ['checkout:write']);
      const checkout = await createCheckout(app, checkoutKey, checkoutBody({ returnUrl: 'http://localhost:3000/thanks' }));
      expect(checkout.status).toBe(400);
      expect(checkout.body.error.details).toEqual([{ field: 'returnUrl', message: 'returnUrl must be an absolute https:// URL' }]);
      const payoutKey = await issueApiKey(app, company.sessionToken, ['payout:write'], 'payouts');
      const session = await createSession(app, payoutKey, sessionBody({ allowedOrigins: ['http://localhost:5173'], returnUrl: 'http://localhost:5173/done' }));
      expect(session.status).toBe(400);
      expect(session.body.error.details.map((d: { field: string }) => d.field)).toEqual(['allowedOrigins', 'returnUrl']);
      expect((await app.request('GET', '/api/sandbox/clock')).status).toBe(404);
    });
  });
});
