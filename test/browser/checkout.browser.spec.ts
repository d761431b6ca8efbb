import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { dataOf } from '../support/split-fixtures';
import { expectAccessible, fillCard, launchChromium, startMerchantSite, ui } from './browser-support';
import { CARDS, createdCheckout, createMerchant, Merchant, orderStatus } from './checkout-fixtures';

/** Issue 29: the embedded frame's paid state of a subscription, at 360 and 1280 px. */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'checkout-pages');

describe('Hosted checkout pages in a real browser', () => {
  let app: TestApp;
  let merchant: Merchant;
  /** A persistent context on a fresh user-data-dir (playwright-core wants the dir as a parameter, not as --user-data-dir). */
  let browser: BrowserContext;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;

  /**
   * Every console error of every page and frame of a test, CSP violations included ("Refused to ...").
   * A document's or a fetch's own 4xx status (a decline is 402 on the hosted page, 422 on the confirm
   * call) is the HTTP contract, not a fault of the page, so those lines are the only ones allowed.
   */
  let consoleErrors: string[] = [];
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp();
    merchant = await createMerchant(app, 'Browser Shop');
    chromium = await launchChromium();
    browser = chromium.browser;
    browser.on('page', (page) => {
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`${message.location().url}: ${message.text()}`);
      });
      page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    });
  }, 60_000);
  beforeEach(() => {
    consoleErrors = [];
  });
  afterEach(() => {
    expect(consoleErrors.filter((line) => !/the server responded with a status of 4(02|22) /.test(line))).toEqual([]);
  });
  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  /** The service answers on 127.0.0.1; redirectUrl carries HOSTED_CHECKOUT_URL (localhost:0 in tests). */
  const local = (url: string) => url.replace(app.platform.config.hostedCheckoutUrl, app.url);

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

  /** A merchant page on another origin that mounts the component and records every event it is told about. */
  const mountingPage = (clientSecret: string, appearance = '{}') =>
    `<!doctype html><html lang="en"><title>Merchant checkout</title><h1>Your cart</h1><div id="pay"></div><p id="result"></p>
<script src="${app.url}/checkout.js"></script>
<script>window.events = [];
var checkout = Paysplit.mount('#pay', { clientSecret: ${JSON.stringify(clientSecret)}, appearance: ${appearance} });
['ready', 'change', 'paid', 'requires_action', 'error'].forEach(function (name) { checkout.on(name, function (e) { window.events.push(e); }); });
checkout.on('paid', function (e) { document.getElementById('result').textContent = 'paid ' + e.orderId; });
window.addEventListener('message', function (e) { if (e.data && e.data.type === 'paysplit.checkout' && e.data.event !== 'resize') (window.posted = window.posted || []).push({ origin: e.origin, event: e.data.event }); });</script>`;
  const eventsOf = (page: Page) => page.evaluate(() => (window as unknown as { events: { event: string; code?: string; declineCode?: string }[] }).events.map((e) => e.event));
  const confirmRequests = (page: Page) => {
    const seen: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/confirm')) seen.push(request.url());
    });
    return seen;
  };

  it('embedded: card fields live only in a cross-origin frame; a bad number is flagged before any request; decline then pay reach the parent as events', async () => {
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
    const site = await startMerchantSite({ '/checkout': mountingPage(order.clientSecret, "{ accent: '#0a7d4f', radius: 12, font: 'Georgia, serif' }") });
    try {
      const page = await browser.newPage();
      const requests = confirmRequests(page);
      await page.goto(`${site.url}/checkout`);
      const frame = page.frameLocator('#pay iframe');
      await ui(frame.getByLabel('Card number')).toBeVisible();
      // The merchant's DOM has no input at all, and the frame's document is out of its reach (another origin).
      expect(await page.locator('input').count()).toBe(0);
      expect(await page.evaluate(() => document.querySelector('iframe')!.contentDocument)).toBeNull();
      expect(await page.evaluate(() => new URL(document.querySelector('iframe')!.src).origin)).toBe(app.url);
      // Appearance reaches the frame; the frame sizes itself to its content.
      expect(await frame.getByRole('button', { name: /^Pay/ }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(10, 125, 79)');
      expect(await frame.getByRole('button', { name: /^Pay/ }).evaluate((b) => getComputedStyle(b).borderRadius)).toBe('12px');
      const contentHeight = await frame.locator('html').evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
      await ui({ first: () => ({ isVisible: async () => Math.abs((await page.locator('iframe').evaluate((f) => f.clientHeight)) - contentHeight) <= 1 }) }).toBeVisible();

      await fillCard(frame, '4242424242424241');
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await ui(frame.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');
      expect(await frame.getByLabel('Card number').evaluate((input) => document.activeElement === input)).toBe(true);
      await ui(frame.locator('#card-number-error')).toContainText('not valid');
      expect(requests).toEqual([]);
      expect(await eventsOf(page)).toContain('change');

      await fillCard(frame, CARDS.declines);
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await ui(frame.getByRole('alert')).toHaveText('Your card was declined. Try another card or contact your bank.');
      await ui({ first: () => ({ isVisible: async () => (await eventsOf(page)).includes('error') }) }).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { events: { event: string; declineCode?: string }[] }).events.find((e) => e.event === 'error')!.declineCode)).toBe(
        'card_declined',
      );
      // The form is kept: the expiry the buyer typed is still there.
      expect(await frame.getByLabel('Expiry year (YYYY)').inputValue()).toBe('2040');

      await fillCard(frame, CARDS.ok);
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await ui(page.locator('#result')).toHaveText(`paid ${order.orderId}`);
      await ui(frame.getByRole('heading', { name: 'Payment received' })).toBeVisible();
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
      expect(page.url()).toBe(`${site.url}/checkout`);
      expect(requests).toHaveLength(2);
      // Every message came from the service's origin (the frame posts only to the mounting page's origin).
      const posted = await page.evaluate(() => (window as unknown as { posted: { origin: string }[] }).posted);
      expect(new Set(posted.map((p) => p.origin))).toEqual(new Set([app.url]));
      await page.close();
    } finally {
      await site.close();
    }
  }, 90_000);

  it('embedded subscription: the paid state says the interval, the next charge and how to cancel, like the receipt (issue 29)', async () => {
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '1500' });
    const site = await startMerchantSite({ '/checkout': mountingPage(order.clientSecret) });
    try {
      const page = await browser.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${site.url}/checkout`);
      const frame = page.frameLocator('#pay iframe');
      await fillCard(frame, CARDS.ok);
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await ui(page.locator('#result')).toHaveText(`paid ${order.orderId}`);
      await ui(frame.getByRole('heading', { name: 'Payment received' })).toBeVisible();
      const terms = frame.locator('#paid-terms');
      await ui(terms).toContainText('$15.00 every month');
      expect(await terms.textContent()).toMatch(/Next charge\$15\.00 on [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC/);
      await ui(terms).toContainText('You can cancel at any time');
      const link = frame.getByRole('link', { name: 'your subscription page' });
      await ui(link).toHaveAttribute('target', '_blank');
      expect(await link.getAttribute('href')).toMatch(/^\/subscriptions\/sub_[0-9a-z]+$/);
      // Reloaded, the frame renders the same terms from the server.
      await page.reload();
      await ui(page.frameLocator('#pay iframe').locator('#paid-terms')).toContainText('$15.00 every month');
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(SHOTS, `embedded-subscription-paid-${width}.png`), fullPage: true });
      }
      await page.close();
    } finally {
      await site.close();
    }
  }, 90_000);

  it('the merchant page of docs/checkout.md works as written: it mounts the frame with its appearance and hears paid', async () => {
    const markdown = readFileSync(join(__dirname, '..', '..', 'docs', 'checkout.md'), 'utf8');
    const section = markdown.slice(markdown.indexOf('**2. The page mounts the frame**'));
    const documented = /```html\n([\s\S]*?)```/.exec(section)![1]!;
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
    // What the documented server does: the service's address in place of PAYSPLIT_URL, the secret in place of "CLIENT_SECRET".
    const html = documented.replaceAll('PAYSPLIT_URL', app.url).replace('"CLIENT_SECRET"', JSON.stringify(order.clientSecret));
    const site = await startMerchantSite({ '/checkout': html });
    try {
      const page = await browser.newPage();
      await page.goto(`${site.url}/checkout`);
      const frame = page.frameLocator('#pay iframe');
      await fillCard(frame, CARDS.ok);
      await ui(page.locator('#result')).toHaveText('Ready to pay');
      expect(await frame.getByRole('button', { name: /^Pay/ }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(10, 125, 79)');
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await ui(page.locator('#result')).toHaveText('Paid, thank you!');
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
      // The frame's paid state is a page a person sees too.
      await ui(frame.getByRole('heading', { name: 'Payment received' })).toBeVisible();
      await expectAccessible(
        page.frames().find((f) => f.url().includes('/embed/checkout/'))!,
        'embedded frame, paid',
      );
      await page.close();
    } finally {
      await site.close();
    }
  }, 60_000);

  it('embedded: the authentication step runs inside the frame (the merchant page stays), and "use another card" reopens the form', async () => {
    const first = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
    const second = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
    const site = await startMerchantSite({ '/one': mountingPage(first.clientSecret), '/two': mountingPage(second.clientSecret) });
    try {
      const page = await browser.newPage();
      await page.goto(`${site.url}/one`);
      const frame = page.frameLocator('#pay iframe');
      await fillCard(frame, CARDS.authenticate);
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await ui(frame.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
      expect(await eventsOf(page)).toContain('requires_action');
      expect((await orderStatus(app, first.orderId)).status).toBe('REQUIRES_ACTION');
      await frame.getByRole('button', { name: 'Confirm payment' }).click();
      await ui(page.locator('#result')).toHaveText(`paid ${first.orderId}`);
      expect(page.url()).toBe(`${site.url}/one`);
      expect((await orderStatus(app, first.orderId)).status).toBe('PAID');

      await page.goto(`${site.url}/two`);
      await fillCard(frame, CARDS.authenticate);
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await frame.getByRole('button', { name: 'Use another card instead' }).click();
      await ui(frame.getByLabel('Card number')).toBeVisible();
      expect((await orderStatus(app, second.orderId)).status).toBe('OPEN');
      await fillCard(frame, CARDS.ok);
      await frame.getByRole('button', { name: /^Pay/ }).click();
      await ui(page.locator('#result')).toHaveText(`paid ${second.orderId}`);
      expect((await orderStatus(app, second.orderId)).status).toBe('PAID');
      await page.close();
    } finally {
      await site.close();
    }
  }, 90_000);

  it('hosted: a bad Luhn number is flagged before any request, keyboard-only payment works, and the page holds at 360 px', async () => {
    const order = await createdCheckout(app, merchant.apiKey, { returnUrl: 'https://shop.example/kb', externalOrderRef: 'A-1001' });
    const page = await browser.newPage();
    await page.route(/^https:\/\/shop\.example\//, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Merchant done</h1>' }));
    await page.setViewportSize({ width: 360, height: 740 });
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await page.goto(local(order.redirectUrl));
    await ui(page.getByRole('heading', { name: 'Pay Browser Shop' })).toBeVisible();
    await ui(page.locator('.summary')).toContainText('Order A-1001');
    await ui(page.locator('.amount')).toHaveText('$19.99');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number');
    await page.keyboard.type('4242 4242 4242 4241');
    for (const value of ['12', '2040', '123']) {
      await page.keyboard.press('Tab');
      await page.keyboard.type(value);
    }
    await page.keyboard.press('Enter');
    await ui(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number');
    expect(await page.getByLabel('Card number').getAttribute('aria-describedby')).toContain('card-number-error');
    expect(posts).toEqual([]);

    await page.keyboard.press('Control+A');
    await page.keyboard.type(CARDS.ok);
    await page.keyboard.press('Enter');
    // (The return to https://shop.example itself is covered by the first test.)
    await ui({ first: () => ({ isVisible: async () => (await orderStatus(app, order.orderId)).status === 'PAID' }) }).toBeVisible();
    await page.close();
    // Reopening the link shows the receipt.
    const again = await browser.newPage();
    await again.goto(local(order.redirectUrl));
    await ui(again.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    await ui(again.locator('dl.receipt')).toContainText('Visa ending in 4242');
    await again.close();
  }, 60_000);

  it('hosted: "use another card" on the authentication step returns the order to OPEN and the card form', async () => {
    const order = await createdCheckout(app, merchant.apiKey);
    const page = await browser.newPage();
    await page.goto(local(order.redirectUrl));
    await fillCard(page, CARDS.authenticate);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('button', { name: 'Use another card instead' }).click();
    await ui(page.getByLabel('Card number')).toBeVisible();
    expect((await orderStatus(app, order.orderId)).status).toBe('OPEN');
    await page.goto(local(order.redirectUrl));
    await ui(page.getByLabel('Card number')).toBeVisible();
    await page.close();
  }, 60_000);

  it('hosted wallet: cancel goes back with order=<id> unpaid, approve pays', async () => {
    const order = await createdCheckout(app, merchant.apiKey, { provider: 'WALLET_PROCESSOR', returnUrl: 'https://shop.example/wallet' });
    const page = await browser.newPage();
    await page.route('https://shop.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Back</title><h1>Back at the merchant</h1>' }),
    );
    await page.goto(local(order.redirectUrl));
    await ui(page.getByRole('heading', { name: 'Pay Browser Shop with your wallet' })).toBeVisible();
    expect(await page.content()).not.toMatch(/email|card number/i);
    await page.getByRole('button', { name: 'Cancel and return to Browser Shop' }).click();
    await page.waitForURL(`https://shop.example/wallet?order=${order.orderId}`);
    expect((await orderStatus(app, order.orderId)).status).toBe('OPEN');
    await page.goto(local(order.redirectUrl));
    await page.getByRole('button', { name: /^Approve payment/ }).click();
    await page.waitForURL(`https://shop.example/wallet?order=${order.orderId}`);
    expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
    await page.close();
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
      await blocked.goto(`${site.url}/noembed`);
      await blocked.waitForTimeout(500);
      const frame = blocked.frames().find((f) => f !== blocked.mainFrame());
      const content = frame ? await frame.content().catch(() => '') : '';
      expect(content).not.toContain('Framed yoga class');
      expect(consoleErrors.join('\n')).toMatch(/frame-ancestors|X-Frame-Options|refused/i);
      // The refusal is what this test wants; nothing else may be logged.
      consoleErrors = consoleErrors.filter((line) => !/frame-ancestors|X-Frame-Options/i.test(line));
      await page.close();
      await blocked.close();
    } finally {
      await site.close();
    }
  }, 60_000);
});
