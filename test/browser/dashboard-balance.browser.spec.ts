import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { BrowserContext, Page } from 'playwright-core';
import { signup, startTestApp, TestApp } from '../support/test-app';
import { dataOf, issueApiKey } from '../support/split-fixtures';
import { topUp } from '../support/payout-embed-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';
import { CARDS, confirm, createdCheckout } from './checkout-fixtures';

/**
 * Issue 28 item 6 (company): the Balance page shows the balance per currency (now and as of a time), the
 * balance transactions with filters (checkout lines included), a month's statement, and downloads CSV; at
 * 360 px and 1280 px (screenshots in test-results/screenshots/dashboard).
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'dashboard');
const WIDTHS = [360, 1280] as const;

describe('Dashboard Balance page in Chromium (issue 28)', () => {
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

  it('shows balances per currency, filters the transactions, gives a statement and CSV, and answers as of a time, at 360 and 1280 px', async () => {
    const company = await signup(app, 'Harbor Goods');
    const apiKey = await issueApiKey(app, company.sessionToken, ['checkout:write'], 'shop');
    const before = dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
    await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 60 } });
    await topUp(app, company.sessionToken, '50000');
    const paid = async (amountMinorUnits: string, currency = 'USD') => {
      const order = await createdCheckout(app, apiKey, { checkoutMode: 'EMBEDDED', amountMinorUnits, currency });
      expect(dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200)).toEqual({ status: 'PAID' });
      await app.eventCount();
      return order.orderId as string;
    };
    const first = await paid('4250');
    dataOf(
      await app.request('POST', `/api/commerce/integration/checkout/orders/${first}/refunds`, {
        token: apiKey,
        body: { amountMinorUnits: '1025', idempotencyKey: 'balance-page' },
      }),
      201,
    );
    await paid('9900', 'EUR');
    await app.eventCount();
    const listed = dataOf(await app.request('GET', '/api/commerce/balance-transactions?limit=100', { token: apiKey }), 200);
    const topUpLines = listed.filter((r: any) => r.type === 'top_up').length;
    expect(topUpLines).toBeGreaterThan(0);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}/dashboard/login`);
    await page.getByLabel('Email').fill(company.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome');

    await page.getByRole('link', { name: 'Balance' }).first().click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Balance');
    const usd = page.getByTestId('balance-USD');
    await ui(usd).toContainText('$500.00');
    // 42.50 paid out, then 10.25 refunded from the merchant balance: it owes 10.25 until the next orders net it.
    await ui(usd).toContainText('Checkout paid out');
    await ui(usd).toContainText('$42.50');
    await ui(usd).toContainText('-$10.25');
    await ui(page.getByTestId('balance-EUR')).toContainText('€99.00');

    const table = page.locator('section[aria-labelledby="transactions-title"] table');
    await ui(table.locator('tr[data-type="checkout_capture"]')).toHaveCount(2);
    await ui(table.locator('tr[data-type="top_up"]')).toHaveCount(topUpLines);
    await page.getByLabel('Type').selectOption('checkout_refund');
    await ui(table.locator('tbody tr')).toHaveCount(1);
    await ui(table.locator('tbody tr')).toContainText('-$10.25');
    await ui(table.locator('tbody tr')).toContainText(first);
    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Currency').selectOption('EUR');
    await ui(table.locator('tbody tr').first()).toContainText('€');
    await ui(table.locator('tr[data-type="top_up"]')).toHaveCount(0);
    await page.getByLabel('Currency').selectOption('');
    await ui(table.locator('tr[data-type="top_up"]')).toHaveCount(topUpLines);

    // The statement of the month of the newest line: one row per account, opening + net change = closing.
    const statement = page.locator('section[aria-labelledby="statement-title"] table');
    await ui(statement.locator('tr[data-account="merchant_balance"]')).toHaveCount(2);
    await ui(statement.locator('tr[data-account="company_balance"]')).toContainText('$500.00');

    // Download CSV: the rows the API lists.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('section[aria-labelledby="transactions-title"]').getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('balance-transactions.csv');
    const rows: Record<string, string>[] = parse(readFileSync((await download.path())!, 'utf8'), { columns: true });
    expect(rows.map((r) => [r.id, r.type, r.amountCents])).toEqual(listed.map((r: any) => [r.id, r.type, r.amountCents]));
    const [statementCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('section[aria-labelledby="statement-title"]').getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(statementCsv.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}\.csv$/);

    await expectAccessible(page, 'balance page');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForLoadState('networkidle');
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(SHOTS, `balance-${width}.png`), fullPage: true });
    }

    // As of a time before anything moved: no balance then.
    await page.setViewportSize({ width: 1280, height: 800 });
    const local = new Date(Date.parse(before));
    const pad = (n: number) => String(n).padStart(2, '0');
    const value = `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}`;
    await page.getByLabel('As of (your time)').fill(value);
    await ui(page.getByRole('heading', { name: 'Balance as of a time' })).toBeVisible();
    await ui(page.locator('section[aria-labelledby="balance-title"]')).toContainText('No balance at that time');
    await page.getByRole('button', { name: 'Now' }).click();
    await ui(page.getByTestId('balance-USD')).toContainText('$500.00');

    expect(httpErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
