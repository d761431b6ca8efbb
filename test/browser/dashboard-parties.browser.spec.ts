import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Locator, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { createBusinessProfile, dataOf, issueApiKey, outbox, uniqueEmail } from '../support/split-fixtures';
import { checkoutBody } from './checkout-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * Issue 29: each party's day in the dashboard, in real Chromium against the real service. The SME creates a Split
 * with an email row, revises it, sees it approved, pays a row out after a fee preview and reads the ledger in plain
 * words; the enterprise approves from the detail page after a confirmation and sees no SME action; the contractor
 * cannot open the SME's pages. Then, for each party, every link and button on every page it can reach is followed
 * or pressed (dialogs cancelled): none may answer 403/404 or show an error.
 * Screenshots of the pages changed, at 360 and 1280 px, go to test-results/screenshots/dashboard-parties.
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'dashboard-parties');
const PASSWORD = 'correct horse battery';

describe("Each party's day in the dashboard (issue 29)", () => {
  let app: TestApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;
  const httpErrors: string[] = [];
  const consoleErrors: string[] = [];
  const sme = { name: 'Acme Staffing', email: uniqueEmail('acme-owner') };
  const enterprise = { name: 'Globex', email: uniqueEmail('globex-ap'), companyId: '', apContactId: '' };
  const dana = uniqueEmail('dana');
  const lee = uniqueEmail('lee');
  let splitId = '';

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
  const signOut = async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await ui(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  };
  /** How many lines each element's text takes on screen. */
  const linesOf = (locator: Locator) =>
    locator.evaluateAll((elements) =>
      elements.map((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      }),
    );
  const nav = async () => (await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents()).map((t) => t.trim());
  const shoot = async (name: string) => {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(100);
      await page.evaluate(() => window.scrollTo(0, 0));
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
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
    page.on('response', (response) => {
      const expected = response.status() === 401 && response.url().endsWith('/api/auth/me');
      if (response.status() >= 400 && !expected) httpErrors.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
    });
    for (const company of [sme, enterprise]) {
      const created = await app.request('POST', '/api/auth/signup', { body: { companyName: company.name, email: company.email, password: PASSWORD } });
      expect(created.status).toBe(201);
    }
    const globex = dataOf(await app.request('POST', '/api/auth/login', { body: { email: enterprise.email, password: PASSWORD } }), 200);
    enterprise.companyId = globex.companyId;
    enterprise.apContactId = (await createBusinessProfile(app, globex.sessionToken, 'Globex Accounts Payable')).id;
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('the SME creates a Split with email rows (live total, margin cap checked), then revises it', async () => {
    await signIn(sme.email);
    await go('/splits');
    await page.getByRole('link', { name: 'New Split' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('New Split');
    await page.getByLabel('Reference (your invoice number)').fill('INV-2026-0042');
    await page.getByLabel('Enterprise account id').fill(enterprise.companyId);
    await page.getByLabel('AP contact id').fill(enterprise.apContactId);
    await page.getByLabel('Row 1: email').fill(dana);
    await page.getByLabel('Row 1: full name (optional)').fill('Dana Contractor');
    await page.getByLabel('Row 1: amount (USD)').fill('400');
    await page.getByRole('button', { name: 'Add a contractor' }).click();
    await page.getByLabel('Row 2: email').fill(lee);
    await page.getByLabel('Row 2: full name (optional)').fill('Lee Contractor');
    await page.getByLabel('Row 2: amount (USD)').fill('600');
    // The margin cap (20% of the total) is checked as the SME types: $300 on $1,000 of contractors is too much.
    await page.getByLabel('Your margin (USD, on top of the contractors)').fill('300');
    await ui(page.getByTestId('split-total')).toHaveText('$1,300.00');
    await ui(page.getByText('Over the 20% cap: at most $250.00.')).toBeVisible();
    await page.getByLabel('Your margin (USD, on top of the contractors)').fill('100');
    await ui(page.getByTestId('split-total')).toHaveText('$1,100.00');
    await shoot('split-new');
    await page.getByRole('button', { name: 'Send the Split for approval' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('$1,100.00 to Globex');
    splitId = /\/splits\/([^/]+)$/.exec(page.url())![1]!;
    await ui(page.getByText('INV-2026-0042')).toBeVisible();
    await ui(page.getByTestId('split-status')).toContainText('Pending approval');
    await ui(page.getByTestId('payday')).toContainText('30 days after approval');
    // Revise: Lee's row goes to $650.
    await page.getByRole('link', { name: 'Revise' }).click();
    await ui(page.getByLabel('Row 2: amount (USD)')).toHaveAttribute('value', '600.00');
    await page.getByLabel('Row 2: amount (USD)').fill('650');
    await ui(page.getByTestId('split-total')).toHaveText('$1,150.00');
    await page.getByRole('button', { name: 'Send the revised Split' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('$1,150.00 to Globex');
    await ui(page.getByTestId('timeline')).toContainText('Roster revised');
    await ui(page.getByTestId('timeline')).toContainText('by you');
    // The list tells it apart: reference, enterprise, created, payday; search finds it by contractor name.
    await go('/splits?q=lee');
    await ui(page.locator(`tr[data-split-id="${splitId}"]`)).toContainText('INV-2026-0042');
    await ui(page.locator(`tr[data-split-id="${splitId}"]`)).toContainText('30 days after approval');
    await go('/splits?q=nobody-by-this-name');
    await ui(page.getByText('No Splits match')).toBeVisible();
    await signOut();
  }, 90_000);

  it('the enterprise sees Approvals (no Splits), approves from the detail page after a confirmation, and sees no SME action', async () => {
    await signIn(enterprise.email);
    expect(await nav()).toEqual(['Home', 'Approvals', 'Bills', 'Checkout', 'Payouts', 'Balance', 'API keys', 'Webhooks', 'Team']);
    await go('/approvals');
    await page.locator(`tr[data-split-id="${splitId}"]`).getByRole('link').click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('$1,150.00 from Acme Staffing');
    await ui(page.getByRole('link', { name: '← Approvals' })).toBeVisible();
    const smeActions = async () =>
      (await page.getByRole('main').getByRole('button').allTextContents()).filter((name) => /Settle margin|Pay out now|Revise|Cancel Split/.test(name));
    expect(await smeActions()).toEqual([]);
    expect(await page.getByRole('link', { name: 'Revise' }).count()).toBe(0);
    await shoot('split-detail-enterprise-pending');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve $1,150.00 from Acme Staffing?' });
    await ui(dialog).toBeVisible();
    await ui(dialog.getByTestId('approval-summary')).toContainText('You commit to pay $1,150.00');
    await ui(dialog.getByTestId('approval-summary')).toContainText('Lee Contractor: $650.00');
    await ui(dialog.getByTestId('approval-summary')).toContainText('keeps $100.00 as its margin');
    await expectAccessible(page, 'approve dialog');
    await shoot('split-approve-dialog');
    await dialog.getByRole('button', { name: 'Approve $1,150.00' }).click();
    await ui(page.getByText('Approved $1,150.00 from Acme Staffing.')).toBeVisible();
    await app.eventCount();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await ui(page.getByTestId('split-status')).toContainText('Funded');
    // Still no SME action once funded, and the contractor rows show no pay-out button.
    expect(await smeActions()).toEqual([]);
    // An SME page is not the enterprise's.
    await go('/splits');
    await ui(page.getByRole('heading', { name: 'Not available to your account' })).toBeVisible();
    await signOut();
  }, 90_000);

  it('the SME sees it approved with its payday, pays a row out after a fee preview, and reads the ledger in plain words', async () => {
    await signIn(sme.email);
    expect(await nav()).toEqual(['Home', 'Splits', 'Checkout', 'Payouts', 'Balance', 'API keys', 'Webhooks', 'Team']);
    await go(`/splits/${splitId}`);
    await ui(page.getByTestId('split-status')).toContainText('Funded');
    await ui(page.getByTestId('timeline')).toContainText('by Globex');
    expect(await page.getByTestId('payday').textContent()).not.toContain('after approval');
    await page.getByRole('button', { name: 'Pay out Dana Contractor now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay Dana Contractor now?' });
    await ui(dialog).toBeVisible();
    // 1.5% of $400.00 is $6.00, deducted from Dana's share.
    await ui(dialog.getByTestId('payout-preview')).toContainText('Early-payout fee$6.00');
    await ui(dialog.getByTestId('payout-preview')).toContainText('Dana Contractor receives now$394.00');
    await ui(dialog.getByTestId('payout-preview')).toContainText("deducted from Dana Contractor's share");
    await expectAccessible(page, 'pay-out-now dialog');
    // At 360 px every amount stays on one line (the amounts column wrapped "$400.00" onto two before).
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await linesOf(dialog.getByTestId('payout-preview').locator('dd'))).toEqual([1, 1, 1]);
    await shoot('split-payout-dialog');
    await dialog.getByRole('button', { name: 'Pay $394.00 now' }).click();
    await ui(page.getByText('Payout to Dana Contractor requested: $394.00 on its way.')).toBeVisible();
    await app.eventCount();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const ledger = page.getByTestId('ledger');
    await ui(ledger).toContainText('Dana Contractor balance');
    await ui(ledger).toContainText('Owed by Globex');
    expect(await ledger.textContent()).not.toMatch(/contractor_balance|dst_|company_balance/);
    await shoot('split-detail-sme');
    // The point-in-time view lists no later postings.
    await page.getByTestId('timeline').getByRole('button').first().click();
    await ui(page.getByText('Showing this Split as it stood at')).toBeVisible();
    await ui(page.getByText('Nothing had moved at that moment.')).toBeVisible();
    await page.getByRole('button', { name: 'Back to now' }).click();
    await go('/splits');
    await shoot('splits-list');
    // Home says what the balance holds for contractors (Lee's $650.00 is not transferred yet), not only what is available.
    await go('/');
    await ui(page.getByTestId('balance-figures-USD')).toContainText('Owed to contractors$650.00');
    await shoot('home-sme');
  }, 90_000);

  it('a rejected Split shows the SME the reason, and its rows are not "Pending"; the SME cancels a pending one', async () => {
    const { sessionToken } = dataOf(await app.request('POST', '/api/auth/login', { body: { email: sme.email, password: PASSWORD } }), 200);
    const body = (reference: string) => ({
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: enterprise.apContactId,
      clientIdempotencyKey: reference,
      roster: [{ email: dana, fullName: 'Dana Contractor', amountCents: '12345' }],
    });
    const wrong = dataOf(await app.request('POST', '/api/commerce/integration/splits', { token: sessionToken, body: body('INV-2026-0043') }), 201);
    const extra = dataOf(await app.request('POST', '/api/commerce/integration/splits', { token: sessionToken, body: body('INV-2026-0044') }), 201);
    const globex = dataOf(await app.request('POST', '/api/auth/login', { body: { email: enterprise.email, password: PASSWORD } }), 200);
    dataOf(await app.request('POST', `/api/commerce/splits/${wrong.id}/reject`, { token: globex.sessionToken, body: { revision: 1, reason: 'The PO number is missing.' } }), 200);
    await go(`/splits/${wrong.id}`);
    await ui(page.getByTestId('rejection')).toContainText('Globex rejected this Split: “The PO number is missing.”');
    await ui(page.locator('#rows-title + .table-wrap')).toContainText('Not paid');
    expect(await page.locator('#rows-title + .table-wrap').textContent()).not.toContain('Pending');
    await shoot('split-detail-rejected');
    await go(`/splits/${extra.id}`);
    await page.getByRole('button', { name: 'Cancel Split' }).click();
    await page.getByRole('dialog', { name: 'Cancel this Split?' }).getByRole('button', { name: 'Cancel Split' }).click();
    await ui(page.getByTestId('split-status')).toContainText('Cancelled');
    await signOut();
  }, 60_000);

  it('a contractor signed in by magic link sees Earnings and its Balance only and cannot open the SME pages', async () => {
    expect((await app.request('POST', '/api/auth/magic-link', { body: { email: dana } })).status).toBe(202);
    const link = (await outbox(app)).filter((message) => message.to === dana).pop()!.link;
    await go(`/magic-link?token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
    expect(await nav()).toEqual(['Balance', 'Earnings']);
    // Its Balance page reads its own books (/api/commerce/me/...): no company balance; "as of" reads /me/earnings?asOf= (issue 29).
    await go('/balance');
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Balance');
    await ui(page.getByRole('heading', { name: 'Balance transactions' })).toBeVisible();
    expect(await page.getByLabel('As of (your time)').count()).toBe(1);
    for (const path of ['/splits', `/splits/${splitId}`, '/splits/new', '/approvals', '/api-keys']) {
      await go(path);
      await ui(page.getByRole('heading', { level: 1 })).toHaveText('Not available to your account');
    }
    await go('/splits');
    await shoot('not-for-you');
  }, 60_000);

  /**
   * Every page a party reaches from its navigation, every link on it followed and every button pressed (a dialog a
   * button opens is cancelled; form submits and sign-out are left alone): no 403/404 answer, no error shown.
   */
  const crawl = async (label: string) => {
    const problems: string[] = [];
    httpErrors.length = 0;
    const seen = new Set<string>();
    const queue = ['/'];
    // A dialog may open only after the preview it shows has loaded, later than networkidle: one still open
    // from the button before is cancelled before the next is pressed, or it would cover that button.
    const cancelOpenDialog = async () => {
      const dialog = page.locator('dialog[open]');
      if ((await dialog.count()) > 0) await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    };
    const errorShown = async () => {
      const texts = await page.locator('.alert.error, .state.error, [role="alert"]:has-text("Not available")').allTextContents();
      return texts.map((t) => t.trim()).filter(Boolean);
    };
    while (queue.length > 0 && seen.size < 40) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      await go(path);
      const here = page.url().replace(`${app.url}/dashboard`, '') || '/';
      for (const shown of await errorShown()) problems.push(`${label} ${path}: shows "${shown}"`);
      const hrefs = await page.locator('a[href^="/dashboard"]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).getAttribute('href')!));
      for (const href of hrefs) {
        const next = href.replace(/^\/dashboard/, '') || '/';
        if (!seen.has(next) && !next.includes('#')) queue.push(next);
      }
      const buttons = page.locator('main button:not([type="submit"]):visible');
      const count = await buttons.count();
      for (let i = 0; i < count; i++) {
        // Pressing one may change the page (an as-of view, a form opened): a button gone meanwhile is skipped.
        const button = buttons.nth(i);
        const name = ((await button.textContent({ timeout: 1000 }).catch(() => null)) ?? '').trim();
        if (!name || !(await button.isVisible()) || (await button.isDisabled())) continue;
        await cancelOpenDialog();
        await button.click({ timeout: 2000 });
        await page.waitForLoadState('networkidle');
        await cancelOpenDialog();
        for (const shown of await errorShown()) problems.push(`${label} ${here} after "${name}": shows "${shown}"`);
        if (page.url() !== `${app.url}/dashboard${here === '/' ? '' : here}`) await go(here);
      }
    }
    for (const error of httpErrors) if (/: (403|404)$/.test(error)) problems.push(`${label}: ${error}`);
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(label === 'contractor' ? 0 : 3);
  };

  it('every link and button each party can reach works: no 403/404, no error shown', async () => {
    await crawl('contractor');
    await signOut();
    await signIn(enterprise.email);
    await crawl('enterprise');
    await signOut();
    await signIn(sme.email);
    await crawl('sme');
    expect(consoleErrors).toEqual([]);
  }, 240_000);

  it('the platform sees what it can pay out, is told the available amount when short, names several origins, and closed payouts say what happened', async () => {
    // Still signed in as the SME (the crawl ended there).
    const { sessionToken } = dataOf(await app.request('POST', '/api/auth/login', { body: { email: sme.email, password: PASSWORD } }), 200);
    // A Payout Embed draws on top-ups and released margins (not on the money a Split advanced for its contractors).
    dataOf(await app.request('POST', '/api/sandbox/balance/top-up', { token: sessionToken, body: { amountCents: '10000', currency: 'USD' } }), 201);
    await go('/payouts');
    await ui(page.getByTestId('payout-balances')).toContainText('Available · USD');
    await page.getByLabel('Recipient email').fill('ann@example.com');
    await page.getByLabel('Amount').fill('1000000');
    await page.getByRole('button', { name: 'Create payout' }).click();
    await ui(page.getByTestId('payout-available')).toHaveText('Available to pay out now: $100.00.');
    await page.getByLabel('Amount').fill('5');
    await page.getByLabel('Your sites’ origins (may frame it)').fill('https://a.example https://b.example');
    await page.getByRole('button', { name: 'Create payout' }).click();
    await ui(page.getByTestId('payout-snippet')).toContainText('/embed/payouts/pes_');
    // A link to send works as well as the frame (docs/payout-embed.md): the dashboard offers both.
    await ui(page.getByTestId('payout-link')).toContainText('/embed/payouts/pes_');
    expect(await page.getByTestId('payout-link').textContent()).toMatch(/^https?:\/\/[^ ]+\/embed\/payouts\/pes_[0-9a-z]+#t=/);
    await ui(page.getByRole('button', { name: 'Copy link' }).first()).toBeVisible();
    const sessions = dataOf(await app.request('GET', '/api/commerce/integration/payout-embed/sessions', { token: sessionToken }), 200) as { allowedOrigins: string[] }[];
    expect(sessions[0]!.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    const row = page.locator('tr', { hasText: 'ann@example.com' });
    await ui(row).toContainText('Expires');
    await row.getByRole('button', { name: /^Cancel/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel payout' }).click();
    await ui(row).toContainText('Cancelled');
    expect(await row.textContent()).not.toContain('Expires');
    await shoot('payouts');
    // A webhook endpoint with no event chosen is refused in words, before any call.
    await go('/webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill('https://hooks.example/paysplit');
    await page.getByRole('button', { name: 'Add endpoint', exact: true }).last().click();
    await ui(page.getByText('Choose at least one event to send.')).toBeVisible();
    expect(await page.locator('main').textContent()).not.toContain('eventTypes');
    // A merchant finds an order by its own reference among others.
    const checkoutKey = await issueApiKey(app, sessionToken, ['checkout:write'], 'shop');
    for (const ref of ['order-1041', 'order-1042', 'order-1043'])
      dataOf(await app.request('POST', '/api/commerce/integration/checkout', { token: checkoutKey, body: checkoutBody({ externalOrderRef: ref }) }), 201);
    await go('/checkout?tab=orders');
    await page.getByLabel('Your order reference').fill('order-1042');
    await page.getByRole('button', { name: 'Find orders' }).click();
    expect(await page.locator('#orders-title').textContent()).toBe('Orders with reference “order-1042”');
    const orderRows = page.locator('tbody tr');
    await ui(orderRows.first()).toContainText('order-1042');
    expect(await orderRows.count()).toBe(1);
    await shoot('checkout-order-by-ref');
  }, 150_000);
});
