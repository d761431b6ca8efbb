import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, createEnterprise, createSme, createSubVendor, dataOf, Enterprise, subVendorRow, uniqueEmail } from '../support/split-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * Issue 27: the enterprise pays a bill from the dashboard's Bills page (balance, with a preview and one
 * confirmation in a dialog), and the SME sees the Split's bill paid. Screenshots at 360 and 1280 px go to
 * test-results/screenshots/bills (git-ignored) for a person to look at.
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'bills');
const PASSWORD = 'correct horse battery';

describe('Bills in Chromium', () => {
  let app: TestApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;
  let enterprise: Enterprise;
  let smeEmail = '';
  const consoleErrors: string[] = [];

  const url = (path: string) => `${app.url}/dashboard${path}`;
  const go = async (path: string) => {
    await page.goto(url(path));
    await page.waitForLoadState('networkidle');
  };
  const signIn = async (email: string) => {
    await go('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
  };
  const shoot = async (name: string) => {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(100);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };

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

    const sme = await createSme(app, 'Acme Staffing');
    smeEmail = sme.email;
    enterprise = await createEnterprise(app, 'Globex');
    const vendor = await createSubVendor(app, sme.apiKey, { email: uniqueEmail('vendor'), fullName: 'Pat Plain' });
    const created = await createdSplit(app, sme.apiKey, {
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: enterprise.apContactId,
      clientIdempotencyKey: 'bill-in-the-browser',
      totalAmountCents: '12500',
      roster: [subVendorRow(vendor, '12500')],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: enterprise.sessionToken, body: { revision: created.revision } }), 200);
    dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 1 } }), 200);
    dataOf(await app.request('POST', '/api/sandbox/balance/top-up', { token: enterprise.sessionToken, body: { currency: 'USD', amountCents: '20000' } }), 201);
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('the enterprise pays its bill from its balance, after a preview it confirms once', async () => {
    await signIn(enterprise.email);
    await page.getByRole('link', { name: 'Bills' }).first().click();
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Bills');
    await ui(page.getByText('$125.00').first()).toBeVisible();
    await shoot('bills-list');
    await page.getByRole('button', { name: /^Pay bill inv_/ }).click();
    await ui(page.getByRole('heading', { name: /^Bill inv_/ })).toBeVisible();
    await ui(page.getByTestId('bill-outstanding')).toHaveText('$125.00');
    await expectAccessible(page, 'bill detail');
    await shoot('bill-detail');
    await page.getByLabel('Amount (USD)').fill('50');
    await page.getByRole('button', { name: 'Review payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay this bill from your balance?' });
    await ui(dialog).toBeVisible();
    await ui(dialog).toContainText('$50.00 leaves your Paysplit balance ($200.00 available)');
    await ui(dialog).toContainText('$75.00 will still be owed');
    await shoot('bill-confirm');
    await dialog.getByRole('button', { name: 'Pay now' }).click();
    await ui(page.getByRole('status')).toContainText('Paid $50.00');
    await ui(page.getByTestId('bill-outstanding')).toHaveText('$75.00');
    // The rest: the whole amount owed, confirmed once.
    await page.getByLabel('Amount (USD)').fill('75.00');
    await page.getByRole('button', { name: 'Review payment' }).click();
    await page.getByRole('dialog', { name: 'Pay this bill from your balance?' }).getByRole('button', { name: 'Pay now' }).click();
    await ui(page.getByRole('status')).toContainText('Paid $75.00');
    await ui(page.getByTestId('bill-outstanding')).toHaveText('$0.00');
    await ui(page.getByRole('cell', { name: 'Paysplit balance' })).toHaveCount(2);
    await shoot('bill-paid');
    const bills = dataOf(await app.request('GET', '/api/commerce/invoices?status=PAID', { token: enterprise.sessionToken }), 200);
    expect(bills).toHaveLength(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it('each view asks the server for its bills, and a bill named in the address opens even when no page shown holds it', async () => {
    await signIn(enterprise.email);
    await go('/bills');
    const asked = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/commerce/invoices' && new URL(request.url()).searchParams.get('status') === 'OPEN,PARTIALLY_PAID',
    );
    await page.getByLabel('Show').selectOption('open');
    expect(new URL((await asked).url()).searchParams.get('limit')).toBe('20');
    await ui(page.getByText('No bills here')).toBeVisible();
    // The bill is paid, so the Open view does not list it; its pay link still opens it.
    const [bill] = dataOf(await app.request('GET', '/api/commerce/invoices?status=PAID', { token: enterprise.sessionToken }), 200) as { id: string }[];
    await go(`/bills?view=open&invoice=${bill!.id}`);
    await ui(page.getByRole('heading', { name: `Bill ${bill!.id}` })).toBeVisible();
    await ui(page.getByTestId('bill-outstanding')).toHaveText('$0.00');
    await shoot('bill-by-address');
    await go('/bills?invoice=inv_00000000000000000000000000');
    await ui(page.getByRole('alert')).toContainText('INVOICE_NOT_FOUND');
    await expectAccessible(page, 'bills with an unknown bill in the address');
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it("the SME sees its Split's bill paid, and can list only unpaid ones", async () => {
    await signIn(smeEmail);
    await go('/splits');
    await ui(page.getByRole('cell', { name: 'Paid' })).toBeVisible();
    await shoot('sme-splits');
    // The server filters across every page (?collectionStatus=), not the page in view.
    const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('collectionStatus') === 'OPEN,PARTIALLY_PAID,OVERDUE');
    await page.getByLabel('Only Splits whose bill is unpaid').check();
    expect(new URL((await asked).url()).pathname).toBe('/api/commerce/splits/outgoing');
    await ui(page.getByText('No unpaid bills')).toBeVisible();
    await shoot('sme-splits-unpaid');
    expect(consoleErrors).toEqual([]);
  });
});
