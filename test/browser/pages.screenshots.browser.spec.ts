import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext } from 'playwright-core';
import { signup, startTestApp, TestApp } from '../support/test-app';
import { createSubVendor, dataOf, issueApiKey, outbox } from '../support/split-fixtures';
import { expectAccessible, fillCard, launchChromium, startMerchantSite } from './browser-support';
import { CARDS, confirm, createdCheckout, createMerchant, form } from './checkout-fixtures';

/**
 * Every buyer page and email landing at 360 px and 1280 px: no horizontal scroll, no console error (a
 * favicon 404 and any Content-Security-Policy violation included), no serious or critical axe-core
 * violation, and a screenshot in test-results/screenshots (git-ignored) for a person to look at
 * (`npm run screenshots`, which also runs the Payout Embed page's steps).
 */
const OUT = join(__dirname, '..', '..', 'test-results', 'screenshots');
const WIDTHS = [360, 1280];

describe('Buyer pages: layout, console and screenshots', () => {
  let app: TestApp;
  let browser: BrowserContext;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    app = await startTestApp();
    chromium = await launchChromium();
    browser = chromium.browser;
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('every page holds from 360 px to 1280 px without console errors', async () => {
    const merchant = await createMerchant(app, 'Northwind Outfitters');
    const local = (url: string) => url.replace(app.platform.config.hostedCheckoutUrl, app.url);
    const tokenOf = (url: string) => new URL(url).searchParams.get('t')!;
    const card = await createdCheckout(app, merchant.apiKey, { externalOrderRef: 'NW-20931', amountMinorUnits: '4250' });
    const yen = await createdCheckout(app, merchant.apiKey, { currency: 'JPY', amountMinorUnits: '4250' });
    const wallet = await createdCheckout(app, merchant.apiKey, { provider: 'WALLET_PROCESSOR', externalOrderRef: 'NW-20932' });
    const auth = await createdCheckout(app, merchant.apiKey, { externalOrderRef: 'NW-20933' });
    await form(app, `/pay/${auth.orderId}`, { t: tokenOf(auth.redirectUrl), number: CARDS.authenticate, expMonth: '12', expYear: '2040', cvc: '123' });
    const paid = await createdCheckout(app, merchant.apiKey, { externalOrderRef: 'NW-20934' });
    await form(app, `/pay/${paid.orderId}`, { t: tokenOf(paid.redirectUrl), number: CARDS.ok, expMonth: '12', expYear: '2040', cvc: '123' });
    const link = dataOf(
      await app.request('POST', '/api/commerce/payment-links', {
        token: merchant.sessionToken,
        body: { title: 'Beginner yoga class (60 min)', amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR' },
      }),
      201,
    );
    const embedded = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', externalOrderRef: 'NW-20935' });
    const paidEmbedded = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', externalOrderRef: 'NW-20936' });
    dataOf(await confirm(app, paidEmbedded.orderId, paidEmbedded.clientSecret, CARDS.ok), 200);
    const mount = (clientSecret: string) => `<!doctype html><html lang="en"><title>Northwind checkout</title><meta name="viewport" content="width=device-width,initial-scale=1">
<body style="font-family:system-ui;margin:0 auto;max-width:40rem;padding:1rem"><h1>Your cart</h1><p>Trail jacket: $19.99</p><div id="pay"></div>
<script src="${app.url}/checkout.js"></script><script>Paysplit.mount('#pay', { clientSecret: ${JSON.stringify(clientSecret)}, appearance: { accent: '#0a7d4f', radius: 10 } });</script></body></html>`;
    const site = await startMerchantSite({
      '/embedded': mount(embedded.clientSecret),
      '/embedded-paid': mount(paidEmbedded.clientSecret),
    });

    // Email landings: each visit that signs in spends a link, so every visit gets a fresh one.
    const owner = await signup(app, 'Landing Staffing');
    const vendorKey = await issueApiKey(app, owner.sessionToken);
    let contractors = 0;
    const freshLink = async () => {
      const email = `landing-${++contractors}@example.test`;
      await createSubVendor(app, vendorKey, { email });
      return (await outbox(app))
        .filter((m) => m.to === email)
        .pop()!
        .link.replace(app.platform.config.publicBaseUrl, app.url);
    };
    const usedLink = async () => {
      const link = await freshLink();
      // Only the explicit sign-in spends a link (issue 24: a GET, as a mail scanner sends, never does).
      const used = await fetch(`${app.url}/api/auth/magic-link/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
      });
      expect([used.status, ((await used.json()) as { data: { sessionToken: string } }).data.sessionToken]).toEqual([200, expect.stringMatching(/^sess_/)]);
      return link;
    };
    const signIn = async (p: import('playwright-core').Page) => {
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.waitForLoadState();
    };

    const pages: { name: string; url: string | (() => Promise<string>); before?: (p: import('playwright-core').Page) => Promise<void>; frame?: RegExp }[] = [
      { name: 'pay-card', url: local(card.redirectUrl) },
      {
        name: 'pay-card-invalid',
        url: local(card.redirectUrl),
        before: async (p) => {
          await fillCard(p, '4242424242424241', { month: '13', year: '2019' });
          await p.getByRole('button', { name: /^Pay/ }).click();
        },
      },
      { name: 'pay-card-declined', url: local(card.redirectUrl), before: async (p) => (await fillCard(p, CARDS.declines), p.getByRole('button', { name: /^Pay/ }).click()) },
      { name: 'pay-yen', url: local(yen.redirectUrl) },
      { name: 'pay-wallet', url: local(wallet.redirectUrl) },
      { name: 'authenticate', url: `${app.url}/pay/${auth.orderId}/authenticate?t=${tokenOf(auth.redirectUrl)}` },
      { name: 'receipt', url: `${app.url}/pay/${paid.orderId}/receipt?t=${tokenOf(paid.redirectUrl)}` },
      { name: 'payment-link', url: `${app.url}/checkout/${link.slug}` },
      { name: 'payment-link-not-completed', url: `${app.url}/checkout/${link.slug}/complete?order=nope` },
      { name: 'not-found', url: `${app.url}/pay/ord_nope?t=x` },
      { name: 'authenticate-in-frame', url: `${app.url}/pay/${auth.orderId}/authenticate?t=${tokenOf(auth.redirectUrl)}&embed=true&frame=1` },
      { name: 'embedded-merchant-page', url: `${site.url}/embedded`, frame: /\/embed\/checkout\// },
      { name: 'embedded-merchant-page-paid', url: `${site.url}/embedded-paid`, frame: /\/embed\/checkout\// },
      { name: 'magic-link-landing', url: freshLink },
      { name: 'magic-link-signed-in', url: freshLink, before: signIn },
      { name: 'magic-link-not-valid', url: usedLink, before: signIn },
      {
        name: 'magic-link-requested',
        url: usedLink,
        before: async (p) => {
          await signIn(p);
          await p.getByLabel('Your email address').fill('someone@example.test');
          await p.getByRole('button', { name: 'Email me a new link' }).click();
          await p.waitForLoadState();
        },
      },
    ];
    const problems: string[] = [];
    try {
      for (const width of WIDTHS) {
        for (const entry of pages) {
          const page = await browser.newPage();
          await page.setViewportSize({ width, height: 800 });
          const errors: string[] = [];
          page.on('console', (m) => {
            if (m.type() === 'error') errors.push(m.text());
          });
          page.on('pageerror', (e) => errors.push(e.message));
          await page.goto(typeof entry.url === 'string' ? entry.url : await entry.url());
          if (entry.before) await entry.before(page);
          await page.waitForLoadState('networkidle');
          // Our page, or our frame inside the merchant's page (the merchant's own markup is not ours to check).
          const target = entry.frame ? page.frames().find((f) => entry.frame!.test(f.url())) : page;
          if (!target) problems.push(`${entry.name}@${width}: frame not found`);
          else await expectAccessible(target, `${entry.name}@${width}`);
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
          if (scroll > width) problems.push(`${entry.name}@${width}: scrollWidth ${scroll}`);
          // The not-found page answers 404 and a decline 402 on purpose (the HTTP contract); Chromium logs the document's own status.
          const expectedStatus: Record<string, RegExp> = {
            'not-found': /status of 404/,
            'pay-card-declined': /status of 402/,
            'magic-link-not-valid': /status of 401/,
            'magic-link-requested': /status of 401/,
          };
          const unexpected = errors.filter((e) => !expectedStatus[entry.name]?.test(e));
          if (unexpected.length) problems.push(`${entry.name}@${width}: ${unexpected.join(' | ')}`);
          await page.screenshot({ path: join(OUT, `${entry.name}-${width}.png`), fullPage: true });
          await page.close();
        }
      }
    } finally {
      await site.close();
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('the accessibility check is not blind: it fails on an unlabelled field and unreadable text', async () => {
    const site = await startMerchantSite({
      '/bad': '<!doctype html><html lang="en"><title>Bad</title><main><input type="text"><p style="color:#eee;background:#fff">faint</p></main></html>',
    });
    const page = await browser.newPage();
    try {
      await page.goto(`${site.url}/bad`);
      await expect(expectAccessible(page, 'bad')).rejects.toThrow(/label|color-contrast/);
    } finally {
      await page.close();
      await site.close();
    }
  }, 60_000);
});
