import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { browser as cookieHeaders, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import {
  createCreator,
  createdSplit,
  createSubVendor,
  creatorRow,
  Creator,
  dataOf,
  newIdempotencyKey,
  outbox,
  RosterRow,
  setupSplitWorld,
  SplitWorld,
  subVendorRow,
  uniqueEmail,
} from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { launchChromium, ui } from './browser-support';

/**
 * Issue 26 in the dashboard, in real Chromium: the SME reverses part of a row (the amount and the fee
 * share previewed in the dialog, confirmed once), sees rows that failed for good, re-points one to another
 * contractor (it goes through) and takes the other back; the contractor sees what it owes and what was taken back on its earnings page. Screenshots at 360 px and
 * 1280 px go to test-results/screenshots/reversals for a person to look at.
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'reversals');
const WIDTHS = [360, 1280] as const;
const PASSWORD = 'correct horse battery';

describe('Split reversals and failed rows in the dashboard (issue 26)', () => {
  let app: TestApp;
  let world: SplitWorld;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let context: BrowserContext;
  let page: Page;
  let creator: Creator;
  let paidSplitId = '';
  let failedSplitId = '';
  const consoleErrors: string[] = [];

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const go = async (path: string) => {
    await page.goto(`${app.url}/dashboard${path}`);
    await page.waitForLoadState('networkidle');
  };
  const shoot = async (name: string, prepare?: () => Promise<void>, fullPage = true) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      if (prepare) await prepare();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  async function fundedSplit(roster: RosterRow[]) {
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('ui-rev'),
      roster,
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await advance(1);
    return split.id as string;
  }
  const magicLinkOf = async (email: string) => (await outbox(app)).filter((message) => message.to === email).pop()!.link;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'Rewind Staffing', enterprise: 'Rewind Globex' });
    creator = await createCreator(app, { fullName: 'Robin Reversed' });
    paidSplitId = await fundedSplit([creatorRow(creator, '10000', { earlyPayoutElected: true })]);
    // The contractor withdraws most of it before the SME reverses: part of the reversal is owed.
    const redeemed = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(await magicLinkOf(creator.email)).searchParams.get('token')! } });
    dataOf(await app.request('POST', '/api/commerce/me/withdrawals', { headers: cookieHeaders(sessionCookie(redeemed)), body: { amountCents: '9000', currency: 'USD' } }), 201);
    const failing = await createSubVendor(app, world.sme.apiKey, {
      email: uniqueEmail('gone').replace('@', '+fail-always@'),
      fullName: 'Gale Gone',
      walletEmail: uniqueEmail('gone-w'),
    });
    const faulty = await createSubVendor(app, world.sme.apiKey, {
      email: uniqueEmail('faulty').replace('@', '+fail-always@'),
      fullName: 'Finn Faulty',
      walletEmail: uniqueEmail('faulty-w'),
    });
    failedSplitId = await fundedSplit([
      subVendorRow(failing, '6000', { earlyPayoutElected: true }),
      subVendorRow(faulty, '2000', { earlyPayoutElected: true }),
      subVendorRow(world.plainVendor, '1000'),
    ]);
    await advance(31 * 86_400);
    chromium = await launchChromium();
    context = chromium.browser;
    page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('the SME reverses part of a row: amount and fee share previewed, confirmed once', async () => {
    await go('/login');
    await page.getByLabel('Email').fill(world.sme.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
    await go(`/splits/${paidSplitId}`);
    await page.getByRole('button', { name: "Reverse Robin Reversed's transfer" }).click();
    const dialog = page.getByRole('dialog', { name: "Reverse Robin Reversed's transfer" });
    await ui(dialog).toBeVisible();
    // Prefilled with everything that can come back; too much is refused before anything is sent.
    expect(await dialog.getByLabel('Amount to take back (USD)').inputValue()).toBe('98.50');
    await dialog.getByLabel('Amount to take back (USD)').fill('98.51');
    await ui(dialog.getByText('At most $98.50.')).toBeVisible();
    await dialog.getByLabel('Amount to take back (USD)').fill('25.00');
    await dialog.getByLabel('Reason').fill('Hours billed twice');
    await dialog.getByLabel(/Also give back the early-payout fee/).check();
    // 150 x 2500 / 9850 = 38.07: $0.38 of the fee comes back with it.
    await ui(dialog.getByTestId('reversal-preview')).toContainText('gives back $25.00 and the fee $0.38: $25.38 to your balance');
    await shoot('reverse-dialog', async () => {
      await ui(dialog).toBeVisible();
    });
    await dialog.getByRole('button', { name: 'Reverse $25.38' }).click();
    await ui(page.getByText('$25.00 taken back from Robin Reversed.')).toBeVisible();
    await ui(page.getByTestId(/^reversed-/)).toHaveText('$25.00 taken back');
    await ui(page.getByTestId('timeline')).toContainText('Contractor payment reversed');
    const split = dataOf(await app.request('GET', `/api/commerce/integration/splits/${paidSplitId}`, { token: world.sme.apiKey }), 200);
    expect(split.distributions[0].reversedAmountCents).toBe('2500');
    await shoot('split-reversed', () => go(`/splits/${paidSplitId}`));
  }, 90_000);

  /** The Split page's table row of `who` (its cells carry data-label, one per column). */
  const rowOf = (who: string) => page.locator('section[aria-labelledby="rows-title"] tbody tr', { hasText: who });
  /** An amount cell is one line (no "$0.9 / 0"): its text lays out as a single line box. */
  const expectOneLine = async (cell: ReturnType<Page['locator']>) => {
    const lines = await cell.evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect({ lines, text: await cell.textContent() }).toEqual({ lines: 1, text: expect.stringMatching(/^\$\d/) });
  };

  it('the SME sees rows that failed for good; re-points one (it goes through) and takes the other back; the Split settles', async () => {
    await go(`/splits/${failedSplitId}`);
    await ui(rowOf('Gale Gone').getByText('Failed for good')).toBeVisible();
    await ui(rowOf('Finn Faulty').getByText('Failed for good')).toBeVisible();
    // The timeline lists every one of the ~240 failed attempts: the shot is of the failed row and its actions, not the whole page.
    await shoot(
      'split-failed-row',
      async () => {
        await go(`/splits/${failedSplitId}`);
        await rowOf('Gale Gone').evaluate((tr) => tr.scrollIntoView({ block: 'center' }));
        const box = await rowOf('Gale Gone').getByRole('button', { name: "Take Gale Gone's row back" }).boundingBox();
        expect(box!.y).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height).toBeLessThanOrEqual(800);
      },
      false,
    );
    // At 1280 px the amounts are one figure each, never broken after the decimal point.
    for (const label of ['Amount', 'Fee', 'Net']) await expectOneLine(rowOf('Gale Gone').locator(`td[data-label="${label}"]`));

    // Re-point Finn Faulty's row to another contractor of the roster: the dialog says what it pays; confirmed once.
    await rowOf('Finn Faulty').getByRole('button', { name: "Re-point Finn Faulty's row" }).click();
    const repoint = page.getByRole('dialog', { name: "Re-point Finn Faulty's row" });
    await ui(repoint).toContainText('Its transfer of $20.00 kept failing.');
    await repoint.getByLabel('Contractor id').fill(world.walletVendor.id);
    // The dialog is modal over the page: the viewport shows it (the whole page is ~240 timeline entries long).
    await shoot(
      'repoint-dialog',
      async () => {
        await ui(repoint).toBeVisible();
      },
      false,
    );
    await repoint.getByRole('button', { name: 'Re-point and pay' }).click();
    await ui(page.getByText('The row is re-pointed; its transfer starts again.')).toBeVisible();
    await ui(repoint).toHaveCount(0);
    await advance(1);
    await go(`/splits/${failedSplitId}`);
    await ui(rowOf('Finn Faulty')).toHaveCount(0);
    await ui(rowOf('Wanda Wallet').locator('td[data-label="Status"]')).toContainText('Completed');
    const repointed = dataOf(await app.request('GET', `/api/commerce/integration/splits/${failedSplitId}`, { token: world.sme.apiKey }), 200);
    expect(repointed.distributions[1]).toMatchObject({ subVendorId: world.walletVendor.id, status: 'COMPLETED', finalFailureAt: null });
    expect(repointed.distributions.filter((d: { subVendorId: string | null }) => d.subVendorId === world.walletVendor.id)).toHaveLength(1);
    await shoot(
      'split-repointed',
      async () => {
        await go(`/splits/${failedSplitId}`);
        await rowOf('Wanda Wallet').evaluate((tr) => tr.scrollIntoView({ block: 'center' }));
      },
      false,
    );

    await page.getByRole('button', { name: "Take Gale Gone's row back" }).click();
    const dialog = page.getByRole('dialog', { name: "Take Gale Gone's row back?" });
    await dialog.getByRole('button', { name: 'Take back $60.00' }).click();
    await ui(page.getByText('$60.00 is back in your balance.')).toBeVisible();
    await ui(page.getByTestId('split-status')).toContainText('Settled');
    await ui(page.getByText('Taken back', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
  }, 90_000);

  it('the contractor sees what it owes and what was taken back on its earnings page', async () => {
    // The link of the withdrawal above was used: a fresh one.
    expect((await app.request('POST', '/api/auth/magic-link', { body: { email: creator.email } })).status).toBe(202);
    await go(`/magic-link?token=${encodeURIComponent(new URL(await magicLinkOf(creator.email)).searchParams.get('token')!)}`);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
    // 850 was still in the balance; 1650 had been withdrawn: owed.
    await ui(page.getByTestId('owed')).toContainText('You owe $16.50');
    await ui(page.getByTestId('reversals')).toContainText('Rewind Staffing');
    await ui(page.getByTestId('reversals')).toContainText('$16.50 of it owed');
    await ui(page.getByTestId('balance-USD')).toHaveText('$0.00');
    await shoot('earnings-owed', () => go('/earnings'));
    expect(consoleErrors).toEqual([]);
  }, 90_000);
});
