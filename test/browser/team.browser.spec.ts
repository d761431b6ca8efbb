import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, createEnterprise, createSme, createSubVendor, dataOf, Enterprise, outbox, subVendorRow, uniqueEmail } from '../support/split-fixtures';
import { invitationToken, invitedMember } from '../support/team-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * Issue 30 in the dashboard: an owner invites two finance members on the Team page; each signs in with the emailed
 * link and approves a Split that needs two approvals in the approvals inbox (which says how many it still needs and
 * from whom); the Split's history names them; a person of two companies switches between them and, as a viewer,
 * is shown no buttons that would fail. Screenshots at 360 and 1280 px in test-results/screenshots/team (git-ignored).
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'team');
const PASSWORD = 'correct horse battery';

describe('Teams in Chromium (issue 30)', () => {
  let app: TestApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;
  let enterprise: Enterprise;
  let sme: Awaited<ReturnType<typeof createSme>>;
  let splitId = '';
  const fin1 = uniqueEmail('fin-one');
  const fin2 = uniqueEmail('fin-two');
  const consoleErrors: string[] = [];

  const url = (path: string) => `${app.url}/dashboard${path}`;
  const go = async (path: string) => {
    await page.goto(url(path));
    await page.waitForLoadState('networkidle');
  };
  const nav = async () => (await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents()).map((t) => t.trim());
  const signIn = async (email: string) => {
    await go('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
  };
  const followInvitation = async (email: string) => {
    await go(`/magic-link?token=${encodeURIComponent(await invitationToken(app, email))}`);
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome, Globex');
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
  const approveInInbox = async () => {
    await page.getByRole('link', { name: 'Approvals' }).first().click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Approvals');
    await page.getByRole('button', { name: new RegExp(`^Approve ${splitId}`) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /^Approve / }).click();
    await ui(page.getByText(/^Approved .* from Acme Staffing\./)).toBeVisible();
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
    sme = await createSme(app, 'Acme Staffing');
    enterprise = await createEnterprise(app, 'Globex');
    // Globex asks two people to approve Splits above $100.
    dataOf(await app.request('PUT', '/api/commerce/approval-policy', { token: enterprise.sessionToken, body: { requiredApprovals: 2, aboveAmountCents: '10000' } }), 200);
    const vendor = await createSubVendor(app, sme.apiKey, { email: uniqueEmail('vendor'), fullName: 'Pat Plain' });
    splitId = (
      await createdSplit(app, sme.apiKey, {
        enterpriseCompanyId: enterprise.companyId,
        apContactBusinessProfileId: enterprise.apContactId,
        clientIdempotencyKey: 'two-people-in-the-browser',
        totalAmountCents: '25000',
        roster: [subVendorRow(vendor, '25000')],
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('the owner invites two finance members on the Team page', async () => {
    await signIn(enterprise.email);
    await page.getByRole('link', { name: 'Team' }).first().click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Team');
    await ui(page.locator(`[data-member="${enterprise.email}"]`)).toContainText('Owner');
    for (const email of [fin1, fin2]) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Role', { exact: true }).selectOption('finance');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await ui(page.getByText(`An invitation was emailed to ${email}.`)).toBeVisible();
      await ui(page.locator(`[data-invitation="${email}"]`)).toContainText('Finance');
    }
    await expectAccessible(page, 'team');
    await shoot('team-owner');
  }, 60_000);

  it('two finance members join by their links and approve the Split; the inbox says what it still needs and from whom', async () => {
    await followInvitation(fin1);
    // Finance: money buttons, no keys or webhooks.
    expect(await nav()).toEqual(['Home', 'Approvals', 'Bills', 'Checkout', 'Payouts', 'Balance', 'Team']);
    await page.getByRole('link', { name: 'Approvals' }).first().click();
    const needed = page.getByTestId(`approvals-needed-${splitId}`);
    await ui(needed).toContainText('0 of 2 approvals');
    await ui(needed).toContainText('Needs 2 more');
    await approveInInbox();
    await ui(needed).toContainText('1 of 2 approvals');
    await ui(needed).toContainText('Approved by you');
    // fin2 has not joined yet: the owner is the one other member who may approve.
    await ui(needed).toContainText(`Needs one more from ${enterprise.email} (not the same person twice)`);
    // The same person does not approve twice: no Approve button for fin1 any more; Reject stays.
    await ui(page.getByRole('button', { name: new RegExp(`^Approve ${splitId}`) })).toHaveCount(0);
    await ui(page.getByRole('button', { name: new RegExp(`^Reject ${splitId}`) })).toHaveCount(1);
    await shoot('approvals-inbox-one-of-two');
    // The Team page: a finance member reads it, with no buttons.
    await page.getByRole('link', { name: 'Team' }).first().click();
    await ui(page.locator(`[data-member="${fin1}"]`)).toContainText('Finance');
    await ui(page.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
    await ui(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
    await shoot('team-finance');

    await followInvitation(fin2);
    await page.getByRole('link', { name: 'Approvals' }).first().click();
    await ui(page.getByTestId(`approvals-needed-${splitId}`)).toContainText(`Approved by ${fin1}`);
    await approveInInbox();
    await ui(page.locator('#decided-title')).toBeVisible();
    const split = dataOf(await app.request('GET', `/api/commerce/splits/${splitId}`, { token: enterprise.sessionToken }), 200);
    expect(['APPROVED', 'FUNDED']).toContain(split.status);

    // The Split's history names both people.
    await go(`/splits/${splitId}`);
    await ui(page.locator('main')).toContainText(`by ${fin1}`);
    await ui(page.locator('main')).toContainText('by you');
    await shoot('split-history-names');
  }, 90_000);

  it('a payout above the threshold is confirmed by a second finance member, not by the one who started it', async () => {
    dataOf(await app.request('POST', '/api/sandbox/balance/top-up', { token: enterprise.sessionToken, body: { currency: 'USD', amountCents: '50000' } }), 201);
    const magicLinkSignIn = async (email: string) => {
      expect((await app.request('POST', '/api/auth/magic-link', { body: { email } })).status).toBe(202);
      const link = (await outbox(app)).filter((message) => message.to === email).pop()!.link;
      await go(`/magic-link?token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`);
      // A plain link signs in to the person's own account (Earnings); the switcher opens Globex.
      await ui(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
      await page.getByLabel('Company').selectOption(enterprise.companyId);
      await ui(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Globex');
    };
    await magicLinkSignIn(fin1);
    await go('/payouts');
    await page.getByLabel('Recipient email').fill('ann@example.com');
    await page.getByLabel('Amount').fill('200');
    await page.getByRole('button', { name: 'Create payout' }).click();
    const waiting = page.locator('[data-testid^="second-person-"]');
    await ui(waiting).toContainText('Needs a second person');
    await ui(waiting).toContainText('You started it');
    await ui(page.getByRole('button', { name: 'Confirm the payout to ann@example.com' })).toHaveCount(0);
    await shoot('payout-needs-second-person');

    await magicLinkSignIn(fin2);
    await go('/payouts');
    await page.getByRole('button', { name: 'Confirm the payout to ann@example.com' }).click();
    await ui(page.locator('[data-testid^="second-person-"]')).toHaveCount(0);
    const [session] = dataOf(await app.request('GET', '/api/commerce/integration/payout-embed/sessions', { token: enterprise.sessionToken }), 200);
    expect(session).toMatchObject({ awaitingConfirmation: false, confirmedBy: expect.stringMatching(/^user:/) });
    expect(session.confirmedBy).not.toBe(session.startedBy);
  }, 90_000);

  it('a person of two companies switches between them; as a viewer it is shown no buttons that would fail', async () => {
    await invitedMember(app, sme.sessionToken, 'viewer', enterprise.email);
    await signIn(enterprise.email);
    const switcher = page.getByLabel('Company');
    await ui(switcher).toBeVisible();
    await shoot('company-switcher');
    await switcher.selectOption(sme.companyId);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Acme Staffing');
    expect(await nav()).toEqual(['Home', 'Splits', 'Checkout', 'Payouts', 'Balance', 'Team']);
    await page.getByRole('link', { name: 'Splits' }).first().click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Splits');
    await ui(page.getByRole('link', { name: /New Split/ })).toHaveCount(0);
    await go(`/splits/${splitId}`);
    await ui(page.locator('main')).toContainText('Acme Staffing');
    await ui(page.getByRole('button', { name: /Pay out .* now|Settle margin|Release margin/ })).toHaveCount(0);
    await go('/payouts');
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Payouts');
    await ui(page.getByRole('button', { name: /Create/ })).toHaveCount(0);
    await go('/api-keys');
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Not available to your account');
    await shoot('viewer-no-keys');
    // And back.
    await page.getByLabel('Company').selectOption(enterprise.companyId);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Globex');
    expect(consoleErrors).toEqual([]);
  }, 90_000);
});
