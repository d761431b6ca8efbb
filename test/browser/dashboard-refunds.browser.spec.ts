import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Locator, Page } from 'playwright-core';
import { signup, startTestApp, TestApp } from '../support/test-app';
import { dataOf, issueApiKey } from '../support/split-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';
import { CARDS, confirm, createdCheckout } from './checkout-fixtures';

/**
 * Issue 26 item 5 (merchant): on the Checkout orders list a merchant refunds part of a PAID order from an
 * accessible dialog that says what goes back before the one confirm, sees the order's refunds and its
 * checkout balance per currency; at 360 px and 1280 px (screenshots in test-results/screenshots/dashboard).
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'dashboard');
const WIDTHS = [360, 1280] as const;

/** Waits (10 s at most) until an input holds `value`. */
async function expectValue(input: Locator, value: string): Promise<void> {
  const until = Date.now() + 10_000;
  while ((await input.inputValue()) !== value) {
    if (Date.now() > until) throw new Error(`expected the input to hold "${value}", it holds "${await input.inputValue()}"`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Dashboard refunds in Chromium (issue 26)', () => {
  let app: TestApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];
  const httpErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp();
    chromium = await launchChromium();
    browser = chromium.browser;
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
    page.on('response', (response) => {
      const expected = response.status() === 401 && response.url().endsWith('/api/auth/me');
      if (response.status() >= 400 && !expected) httpErrors.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
    });
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('refunds part of a paid order after a preview, lists its refunds and shows the checkout balance, at 360 and 1280 px', async () => {
    const merchant = await signup(app, 'Northwind Shop');
    const apiKey = await issueApiKey(app, merchant.sessionToken, ['checkout:write'], 'shop');
    const order = await createdCheckout(app, apiKey, { checkoutMode: 'EMBEDDED', externalOrderRef: 'NW-1042', amountMinorUnits: '4250' });
    expect(dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200)).toEqual({ status: 'PAID' });
    await app.eventCount();

    // The dashboard reads the session cookie the login sets.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}/dashboard/login`);
    await page.getByLabel('Email').fill(merchant.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome');

    await page.goto(`${app.url}/dashboard/checkout?tab=orders`);
    const row = page.locator('tr', { hasText: 'NW-1042' });
    await ui(row).toContainText('$42.50');
    await ui(page.locator('.checkout-balance')).toContainText('Paid out $42.50');

    await row.getByRole('button', { name: `Refund order ${order.orderId}` }).click();
    const dialog = page.getByRole('dialog');
    await ui(dialog).toBeVisible();
    await ui(dialog).toContainText('No refunds yet.');
    const amount = dialog.getByLabel('Amount to refund (USD)');
    await expectValue(amount, '42.50');
    // Over what is refundable: said at the field, and nothing is sent.
    await amount.fill('50');
    await ui(dialog).toContainText('At most $42.50 is left to refund');
    await amount.fill('10.25');
    await dialog.getByLabel('Reason (optional)').fill('One item returned');
    await ui(dialog.locator('.refund-preview')).toContainText("$10.25 goes back to the buyer's Visa ···· 4242");
    await expectAccessible(page, 'refund dialog');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: join(SHOTS, `checkout-refund-dialog-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('button', { name: 'Refund $10.25' }).click();
    await ui(dialog).toContainText('$10.25 went back to the buyer.');
    await ui(dialog.locator('[data-refund]')).toHaveCount(1);
    await ui(dialog.locator('[data-refund]')).toContainText('One item returned');
    await expectValue(amount, '32.25');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await ui(row).toContainText('Partially refunded');
    await ui(row).toContainText('Refunded $10.25');
    await ui(page.locator('.checkout-balance')).toContainText('-$10.25');
    const refunds = dataOf(await app.request('GET', `/api/commerce/integration/checkout/orders/${order.orderId}/refunds`, { token: apiKey }), 200);
    expect(refunds).toEqual([expect.objectContaining({ amountMinorUnits: '1025', status: 'succeeded', reason: 'One item returned' })]);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${app.url}/dashboard/checkout?tab=orders`);
      await ui(page.locator('tr', { hasText: 'NW-1042' })).toContainText('Partially refunded');
      await page.waitForLoadState('networkidle');
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(SHOTS, `checkout-orders-refunded-${width}.png`), fullPage: true });
    }
    expect(httpErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
