import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { dataOf } from '../support/split-fixtures';
import { CARDS, createdCheckout, createMerchant, Merchant, orderStatus } from './checkout-fixtures';

const CHROMIUM = '/usr/bin/chromium';

/** A page on another origin (another loopback port): the merchant's return page and embedding pages. */
async function startMerchantSite(routes: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(routes[path] ?? `<!doctype html><title>Merchant</title><h1>Thanks from the merchant</h1><p id="query">${req.url}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('Hosted checkout pages in a real browser', () => {
  let app: TestApp;
  let merchant: Merchant;
  /** A persistent context on a fresh user-data-dir (playwright-core wants the dir as a parameter, not as --user-data-dir). */
  let browser: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`bash scripts/install-chromium.sh\` (browser tests never skip)`);
    app = await startTestApp();
    merchant = await createMerchant(app, 'Browser Shop');
    profile = mkdtempSync(join(tmpdir(), 'paysplit-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** The service answers on 127.0.0.1; redirectUrl carries HOSTED_CHECKOUT_URL (localhost:0 in tests). */
  const local = (url: string) => url.replace(app.platform.config.hostedCheckoutUrl, app.url);

  const fillCard = async (page: import('playwright-core').Page, number: string) => {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry month (MM)').fill('12');
    await page.getByLabel('Expiry year (YYYY)').fill('2040');
    await page.getByLabel('Security code (CVC)').fill('123');
  };

  it('pays on the redirect page, retrying after a decline, and lands on the return URL with ?order=', async () => {
    const site = await startMerchantSite({});
    try {
      const order = await createdCheckout(app, merchant.apiKey, { returnUrl: 'https://shop.example/thanks' });
      // returnUrl must be https in the API; the browser follows it to our local merchant site instead.
      const page = await browser.newPage();
      await page.route('https://shop.example/**', (route) => route.fulfill({ status: 302, headers: { location: `${site.url}/thanks${new URL(route.request().url()).search}` } }));
      await page.goto(local(order.redirectUrl));
      await fillCard(page, CARDS.declines);
      await page.keyboard.press('Enter');
      await ui(page.getByRole('alert')).toContainText('Your card was declined');
      await fillCard(page, CARDS.ok);
      await page.getByRole('button', { name: /^Pay/ }).click();
      await page.waitForURL(`${site.url}/thanks?order=${order.orderId}`);
      await ui(page.locator('#query')).toHaveText(`/thanks?order=${order.orderId}`);
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
      await page.close();
    } finally {
      await site.close();
    }
  }, 60_000);

  it('takes the 3155 card through its confirm step', async () => {
    const order = await createdCheckout(app, merchant.apiKey, { returnUrl: 'https://shop.example/done?cart=9' });
    const page = await browser.newPage();
    await page.route('https://shop.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Merchant done</h1>' }));
    await page.goto(local(order.redirectUrl));
    await fillCard(page, CARDS.authenticate);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await ui(page.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await page.waitForURL(`https://shop.example/done?cart=9&order=${order.orderId}`);
    expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
    await page.close();
  }, 60_000);

  it('pays with the embedded component inside a page on another origin', async () => {
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
    const site = await startMerchantSite({
      '/checkout': `<!doctype html><title>Merchant checkout</title><h1>Your cart</h1><div id="pay"></div><p id="result"></p>
<script src="${app.url}/checkout.js"></script>
<script>Paysplit.mount('#pay', { orderId: ${JSON.stringify(order.orderId)}, clientSecret: ${JSON.stringify(order.clientSecret)}, onSuccess: function (r) { document.getElementById('result').textContent = 'paid ' + r.orderId; } });</script>`,
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${site.url}/checkout`);
      await fillCard(page, CARDS.declines);
      await page.getByRole('button', { name: 'Pay' }).click();
      await ui(page.getByRole('alert')).toContainText('declined');
      await fillCard(page, CARDS.ok);
      await page.getByRole('button', { name: 'Pay' }).click();
      await ui(page.locator('#result')).toHaveText(`paid ${order.orderId}`);
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
      await page.close();
    } finally {
      await site.close();
    }
  }, 60_000);

  it('renders /checkout/:slug?embed=true inside an iframe of another origin, and refuses to be framed without it', async () => {
    const link = dataOf(
      await app.request('POST', '/api/commerce/payment-links', {
        token: merchant.sessionToken,
        body: { title: 'Framed yoga class', amountMinorUnits: '1500', currency: 'USD', provider: 'CARD_PROCESSOR' },
      }),
      201,
    );
    const site = await startMerchantSite({
      '/embed': `<!doctype html><title>Embed</title><iframe id="f" title="checkout" src="${app.url}/checkout/${link.slug}?embed=true" width="500" height="400"></iframe>`,
      '/noembed': `<!doctype html><title>No embed</title><iframe id="f" title="checkout" src="${app.url}/checkout/${link.slug}" width="500" height="400"></iframe>`,
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${site.url}/embed`);
      const framed = page.frameLocator('#f');
      await ui(framed.getByRole('heading', { name: 'Framed yoga class' })).toBeVisible();
      await ui(framed.locator('header.chrome')).toHaveCount(0);

      const blocked = await browser.newPage();
      const consoleErrors: string[] = [];
      blocked.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await blocked.goto(`${site.url}/noembed`);
      await blocked.waitForTimeout(500);
      const frame = blocked.frames().find((f) => f !== blocked.mainFrame());
      const content = frame ? await frame.content().catch(() => '') : '';
      expect(content).not.toContain('Framed yoga class');
      expect(consoleErrors.join('\n')).toMatch(/frame-ancestors|X-Frame-Options|refused/i);
      await page.close();
      await blocked.close();
    } finally {
      await site.close();
    }
  }, 60_000);
});

/** Minimal web-first assertions over playwright-core (which ships no test runner). */
function ui(subject: unknown) {
  const poll = async (check: () => Promise<boolean>, describe: () => Promise<string>, timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > until) throw new Error(await describe());
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const locator = subject as unknown as import('playwright-core').Locator;
  return {
    toContainText: (text: string) =>
      poll(
        async () => (await locator.first().textContent())?.includes(text) ?? false,
        async () =>
          `expected text containing "${text}", got "${await locator
            .first()
            .textContent()
            .catch(() => null)}"`,
      ),
    toHaveText: (text: string) =>
      poll(
        async () => (await locator.first().textContent())?.trim() === text,
        async () =>
          `expected text "${text}", got "${await locator
            .first()
            .textContent()
            .catch(() => null)}"`,
      ),
    toBeVisible: () =>
      poll(
        () => locator.first().isVisible(),
        async () => 'expected the element to be visible',
      ),
    toHaveCount: (count: number) =>
      poll(
        async () => (await locator.count()) === count,
        async () => `expected ${count} elements, got ${await locator.count()}`,
      ),
  };
}
