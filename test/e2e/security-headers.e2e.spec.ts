import { startTestApp, TestApp } from '../support/test-app';
import { expectPageHeaders } from '../support/page-headers';
import { createdCheckout, createMerchant } from '../browser/checkout-fixtures';

/** Issue 15: every answer says nosniff; every page a person sees carries the strict page policy with its own framing rule. */
describe('security headers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['a JSON answer', '/health'],
    ['an error in the envelope', '/api/commerce/company'],
    ['an error Fastify answers before any route (bad URL)', '/api/commerce/integration/splits/%ff'],
    ['an unknown route', '/nope'],
    ['the hosted stylesheet', '/assets/pages.css'],
    ['the card-form script', '/assets/card-form.js'],
    ['the payout page script', '/assets/payout-embed.js'],
    ['the payout page stylesheet', '/assets/payout-embed.css'],
    ['checkout.js', '/checkout.js'],
    ['the favicon', '/favicon.ico'],
  ])('%s says X-Content-Type-Options: nosniff', async (_label, path) => {
    const response = await fetch(`${app.url}${path}`);
    await response.arrayBuffer(); // an unread body keeps the connection busy and app.close() waiting
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('pages: the hosted card page refuses framing, its ?embed=true twin and the embedded frame allow any parent, unknown pages too', async () => {
    const merchant = await createMerchant(app, 'Header Shop');
    const hosted = await createdCheckout(app, merchant.apiKey);
    const embedded = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
    const path = new URL(hosted.redirectUrl).pathname + new URL(hosted.redirectUrl).search;
    const cases: [string, number, string][] = [
      [path, 200, "'none'"],
      [`${path}&embed=true`, 200, '*'],
      [`/embed/checkout/${embedded.orderId}`, 200, '*'],
      ['/embed/checkout/ord_nope', 404, '*'],
      ['/pay/ord_nope?t=x', 404, "'none'"],
      ['/pay/ord_nope?t=x&embed=true', 404, '*'],
      ['/embed/payouts/pes_00000000000000000000000000', 404, "'none'"],
    ];
    for (const [url, status, ancestors] of cases) {
      const response = await fetch(`${app.url}${url}`);
      expect([url, response.status]).toEqual([url, status]);
      expectPageHeaders(response.headers, ancestors);
      expect(await response.text()).not.toMatch(/<script>|<style>|\son[a-z]+="|style="/);
    }
  });

  it('nosniff breaks nothing the service serves: the API docs page declares a script or style type for each of its assets', async () => {
    const html = await (await fetch(`${app.url}/docs`)).text();
    const assets = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)]
      .map((m) => [m[1]!, /javascript/] as const)
      .concat([...html.matchAll(/<link[^>]+href="([^"]+\.css)"/g)].map((m) => [m[1]!, /text\/css/] as const));
    expect(assets.length).toBeGreaterThan(0);
    for (const [src, type] of assets) {
      const response = await fetch(new URL(src, `${app.url}/docs`));
      await response.arrayBuffer();
      expect([src, response.status, response.headers.get('content-type')]).toEqual([src, 200, expect.stringMatching(type)]);
    }
  });
});
