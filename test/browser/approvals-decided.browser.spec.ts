import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, dataOf, setupSplitWorld, splitBody, SplitWorld } from '../support/split-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * Issue 29: the enterprise's Approvals page lists decided Splits so they can be told apart: the supplier's
 * reference, when it was decided and by whom (where the read model knows), the rejection reason. Screenshots at
 * 360 and 1280 px go to test-results/screenshots/approvals-decided.
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'approvals-decided');

describe('Approvals: the Decided list (issue 29)', () => {
  let app: TestApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;
  let world: SplitWorld;

  const go = async (path: string) => {
    await page.goto(`${app.url}/dashboard${path}`);
    await page.waitForLoadState('networkidle');
  };
  const shoot = async (name: string) => {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(100);
      expect({ name, width, scroll: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ name, width, scroll: width });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp();
    chromium = await launchChromium();
    browser = chromium.browser;
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    world = await setupSplitWorld(app, { sme: 'Acme Staffing', enterprise: 'Globex' });
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('shows each decided Split with its reference, decision date, who decided and the rejection reason', async () => {
    const token = world.enterprise.sessionToken;
    const approved = await createdSplit(app, world.sme.apiKey, splitBody(world, { clientIdempotencyKey: 'INV-2026-0077' }));
    const rejected = await createdSplit(app, world.sme.apiKey, splitBody(world, { clientIdempotencyKey: 'INV-2026-0078' }));
    dataOf(await app.request('POST', `/api/commerce/splits/${approved.id}/approve`, { token, body: { revision: approved.revision } }), 200);
    dataOf(await app.request('POST', `/api/commerce/splits/${rejected.id}/reject`, { token, body: { revision: rejected.revision, reason: 'The PO number is missing.' } }), 200);
    const approvedNow = dataOf(await app.request('GET', `/api/commerce/splits/${approved.id}`, { token }), 200);
    const rejectedNow = dataOf(await app.request('GET', `/api/commerce/splits/${rejected.id}`, { token }), 200);
    expect(rejectedNow.status).toBe('REJECTED');
    // The SME's own reference is the SME's (docs/decisions.md, issue 29): the enterprise knows a decided Split by
    // the payment reference of the bill it became, and a rejected one (no bill) by its id.
    expect(approvedNow.reference).toBeNull();
    // The bill is issued by a workflow once the Split funds: wait for it in the enterprise's bills.
    const billOf = async () =>
      (dataOf(await app.request('GET', '/api/commerce/invoices', { token }), 200) as { splitId: string; paymentReference: string }[]).find((b) => b.splitId === approved.id);
    let bill = await billOf();
    for (let tries = 0; !bill && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      bill = await billOf();
    }
    expect(bill?.paymentReference).toMatch(/^PS-/);

    await go('/login');
    await page.getByLabel('Email').fill(world.enterprise.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
    await go('/approvals');
    const decided = page.getByRole('region', { name: 'Decided' });
    const approvedItem = decided.locator(`li[data-split-id="${approved.id}"]`);
    await ui(approvedItem.getByRole('link', { name: bill!.paymentReference })).toBeVisible();
    await ui(approvedItem).toContainText('Approved');
    await ui(approvedItem).toContainText('by you');
    await ui(approvedItem.locator(`time[datetime="${approvedNow.approvals.at(-1).approvedAt}"]`)).toBeVisible();
    const rejectedItem = decided.locator(`li[data-split-id="${rejected.id}"]`);
    await ui(rejectedItem.getByRole('link', { name: rejected.id })).toBeVisible();
    await ui(rejectedItem).toContainText('Rejected');
    await ui(rejectedItem).toContainText('The PO number is missing.');
    await ui(rejectedItem.locator(`time[datetime="${rejectedNow.updatedAt}"]`)).toBeVisible();
    await decided.scrollIntoViewIfNeeded();
    await expectAccessible(page, 'approvals decided');
    await shoot('approvals-decided');
  }, 90_000);
});
