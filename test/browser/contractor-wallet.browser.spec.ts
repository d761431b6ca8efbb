import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { DASHBOARD_ENV } from '../support/dashboard-fixtures';
import {
  createdSplit,
  createSubVendor,
  dataOf,
  emailRow,
  newIdempotencyKey,
  outbox,
  RosterRow,
  setupSplitWorld,
  SplitWorld,
  subVendorRow,
  uniqueEmail,
} from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * Issue 29 defect 4 in real Chromium: a contractor whose money sat behind "No wallet on file... ask the company"
 * adds a wallet itself, verifies it with the code emailed there (the sandbox outbox), withdraws, changes it, and
 * sees its approved rows not paid yet with their payday; a contractor whose SME supplied a wallet withdraws to it.
 * Screenshots of Earnings and Balance at 360 and 1280 px go to test-results/screenshots/contractor-wallet.
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'contractor-wallet');
const DAY = 86_400;

describe('A contractor adds, verifies and changes its own wallet and withdraws (issue 29 defect 4)', () => {
  let app: TestApp;
  let world: SplitWorld;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];
  const dana = uniqueEmail('dana');
  const danaWallet = uniqueEmail('dana-wallet');
  const danaNewWallet = uniqueEmail('dana-new-wallet');
  const sam = uniqueEmail('sam');
  const samWallet = uniqueEmail('sam-wallet');

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const go = async (path: string) => {
    await page.goto(`${app.url}/dashboard${path}`);
    await page.waitForLoadState('networkidle');
  };
  const approvedSplit = async (roster: RosterRow[]) => {
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('wallet'),
      roster,
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await advance(1);
    return split;
  };
  const signIn = async (email: string) => {
    await app.request('POST', '/api/auth/magic-link', { body: { email } });
    const link = (await outbox(app)).filter((message) => message.to === email).pop()!.link;
    await go(`/magic-link?token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
  };
  const codeSentTo = async (email: string) => {
    const message = (await outbox(app)).filter((m) => m.to === email).pop();
    expect(message?.subject).toBe('Your code to add this wallet on Paysplit');
    return /\b(\d{6})\b/.exec(message!.body)![1]!;
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
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'Wallet Staffing', enterprise: 'Wallet Globex' });
    // Dana: an email row (no wallet anywhere), paid at net terms; then a second Split approved and not paid yet.
    await approvedSplit([emailRow(dana, '25000', { fullName: 'Dana Row' })]);
    // Sam: a SubVendor whose wallet email the SME supplied.
    const samVendor = await createSubVendor(app, world.sme.apiKey, { email: sam, fullName: 'Sam Supplied', walletEmail: samWallet });
    await approvedSplit([subVendorRow(samVendor, '8000')]);
    await advance(31 * DAY);
    await approvedSplit([emailRow(dana, '12000', { fullName: 'Dana Row' })]);
    await app.eventCount();
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

  it('adds a wallet, verifies it with the emailed code, withdraws, and sees what is upcoming with its payday', async () => {
    await signIn(dana);
    await ui(page.getByTestId('balance-USD')).toHaveText('$250.00');
    expect(await page.getByRole('button', { name: 'Withdraw to wallet' }).isDisabled()).toBe(true);
    // Upcoming: the second Split's row, paid at net terms (30 days after funding).
    await ui(page.getByTestId('upcoming')).toContainText('Wallet Staffing');
    await ui(page.getByTestId('upcoming')).toContainText('$120.00');
    await ui(page.getByTestId('upcoming')).toContainText('Payday ');
    await shoot('earnings-no-wallet');

    await page.getByRole('button', { name: 'Add a wallet' }).click();
    await page.getByLabel('Wallet email').fill(danaWallet);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    // No wallet yet: the panel says where the code went and that it waits, not "No wallet on file yet".
    await ui(page.getByTestId('wallet-waiting')).toHaveText(`A code was sent to ${danaWallet} and is waiting: enter it to start using this wallet.`);
    await ui(page.getByText('No wallet on file yet', { exact: false })).toHaveCount(0);
    await ui(page.getByTestId('pending-wallet')).toContainText('The code works until');
    const code = await codeSentTo(danaWallet);
    // A wrong code says how many tries are left and changes nothing.
    await page.getByLabel('Code from the email').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify wallet' }).click();
    await ui(page.getByText('That code is not right; 4 tries left')).toBeVisible();
    await expectAccessible(page, 'earnings with a wallet waiting for its code');
    await shoot('earnings-code-sent');
    await page.getByLabel('Code from the email').fill(code);
    await page.getByRole('button', { name: 'Verify wallet' }).click();
    await ui(page.getByRole('status')).toContainText(`${danaWallet} is verified`);
    await ui(page.getByTestId('wallet-on-file')).toContainText(danaWallet);
    await ui(page.getByTestId('wallet-on-file')).toContainText('Verified');

    await page.getByRole('button', { name: 'Withdraw to wallet' }).click();
    await ui(page.getByRole('dialog')).toContainText(`The money goes to ${danaWallet}.`);
    await page.getByLabel('Amount (USD)').fill('100');
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
    await ui(page.getByRole('status')).toContainText('$100.00 is on its way to your wallet.');
    await ui(page.getByTestId('balance-USD')).toHaveText('$150.00');
    await ui(page.getByTestId('withdrawals')).toContainText('$100.00');
    await shoot('earnings-withdrawn');

    // Changing the wallet: the old one stays until the new one's code is entered.
    await advance(61);
    await page.getByRole('button', { name: 'Change wallet' }).click();
    await page.getByLabel('Wallet email').fill(danaNewWallet);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await ui(page.getByTestId('pending-wallet')).toContainText(danaNewWallet);
    await ui(page.getByTestId('wallet-on-file')).toContainText(danaWallet);
    await page.getByLabel('Code from the email').fill(await codeSentTo(danaNewWallet));
    await page.getByRole('button', { name: 'Verify wallet' }).click();
    await ui(page.getByTestId('wallet-on-file')).toContainText(danaNewWallet);
    const withdrawals = dataOf(
      await app.request('GET', '/api/commerce/me/earnings', { headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } }),
      200,
    );
    expect(withdrawals.wallet).toEqual({ email: danaNewWallet, active: true, verified: true, source: 'own' });

    // The Balance page has an as-of picker for the contractor too (issue 28's ?asOf=).
    await go('/balance');
    await ui(page.getByLabel('As of (your time)')).toBeVisible();
    await ui(page.getByTestId('balance-USD')).toContainText('$150.00');
    await shoot('balance');
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it("a contractor whose company supplied its wallet withdraws to it (the SME's say-so its rows already pay to)", async () => {
    await signIn(sam);
    await ui(page.getByTestId('wallet-on-file')).toContainText(samWallet);
    await ui(page.getByTestId('wallet-on-file')).toContainText('From Wallet Staffing');
    await page.getByRole('button', { name: 'Withdraw to wallet' }).click();
    await ui(page.getByRole('dialog')).toContainText(`The money goes to ${samWallet}.`);
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
    await ui(page.getByRole('status')).toContainText('$80.00 is on its way to your wallet.');
    await shoot('earnings-sme-wallet');
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
