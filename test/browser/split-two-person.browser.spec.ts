import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { createdSplit, creatorRow, dataOf, newIdempotencyKey, outbox, setupSplitWorld, SplitWorld } from '../support/split-fixtures';
import { invitedMember, Member } from '../support/team-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { launchChromium, ui } from './browser-support';

/**
 * Issue 30 in the dashboard, the SME's own Split money: above the company's two-person threshold the Split page's
 * "Pay out now" and "Settle margin" ask for a second person; the member who asked sees "Needs a second person" and
 * no Confirm, a second finance member gets Confirm and the money moves. Screenshots at 360 and 1280 px in
 * test-results/screenshots/split-two-person (git-ignored).
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'split-two-person');

describe('Split pay-out-now and margin release by two people, in Chromium (issue 30)', () => {
  let app: TestApp;
  let world: SplitWorld;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;
  let fin1: Member;
  let fin2: Member;
  let splitId = '';
  const consoleErrors: string[] = [];

  const go = async (path: string) => {
    await page.goto(`${app.url}/dashboard${path}`);
    await page.waitForLoadState('networkidle');
  };
  const signInAs = async (email: string) => {
    await browser.clearCookies();
    expect((await app.request('POST', '/api/auth/magic-link', { body: { email } })).status).toBe(202);
    const link = (await outbox(app)).filter((message) => message.to === email).pop()!.link;
    await go(`/magic-link?token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`);
    // A plain link signs in to the person's own account (Earnings); the switcher opens Acme.
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
    await page.getByLabel('Company').selectOption(world.sme.companyId);
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
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
    world = await setupSplitWorld(app, { sme: 'Acme Staffing', enterprise: 'Globex' });
    fin1 = await invitedMember(app, world.sme.sessionToken, 'finance');
    fin2 = await invitedMember(app, world.sme.sessionToken, 'finance');
    // Acme asks for two people above $40.
    dataOf(await app.request('PUT', '/api/commerce/approval-policy', { token: world.sme.sessionToken, body: { requiredApprovals: 2, aboveAmountCents: '4000' } }), 200);
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('two-person-browser'),
      totalAmountCents: '35000',
      roster: [creatorRow(world.creator, '30000')],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();
    splitId = split.id;
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('the member who asks sees "Needs a second person"; a second finance member confirms and the money moves', async () => {
    await signInAs(fin1.email);
    await go(`/splits/${splitId}`);
    await page.getByRole('button', { name: 'Pay out Casey Creator now' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Pay .* now$/ })
      .click();
    await ui(page.getByText(/Payout to Casey Creator asked for/)).toBeVisible();
    const row = page.locator('[data-testid^="second-person-dst_"]');
    await ui(row).toContainText('Needs a second person');
    await ui(row).toContainText('You asked; another member confirms it.');
    await page.getByRole('button', { name: 'Settle margin' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Settle margin' }).click();
    const margin = page.locator('[data-testid="second-person-margin"]');
    await ui(margin).toContainText('Needs a second person');
    await ui(page.getByRole('button', { name: /^Confirm/ })).toHaveCount(0);
    await shoot('split-needs-second-person');

    await signInAs(fin2.email);
    await go(`/splits/${splitId}`);
    await shoot('split-second-member-confirms');
    await page.getByRole('button', { name: 'Confirm paying out Casey Creator now' }).click();
    await ui(page.getByText('Payout to Casey Creator confirmed: on its way.')).toBeVisible();
    await ui(row).toHaveCount(0);
    await page.getByRole('button', { name: 'Confirm the margin release' }).click();
    await ui(page.getByTestId('margin-status')).toHaveText('Released');
    await ui(margin).toHaveCount(0);
    const split = dataOf(await app.request('GET', `/api/commerce/splits/${splitId}`, { token: world.sme.sessionToken }), 200);
    expect(split.distributions[0].legBTransferPayoutId).toMatch(/^po_/);
    expect(split.marginStatus).toBe('RELEASED');
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
