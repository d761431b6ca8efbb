import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, dataOf, emailRow, outbox, setupSplitWorld, splitBody, uniqueEmail } from '../support/split-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * Issue 29 items 9 and 10 in real Chromium: a contractor asks for a sign-in link from the sign-in page (no password,
 * no company needed), and every signed-in page shows the sandbox banner with how far the sandbox clock is ahead.
 * Screenshots at 360 and 1280 px go to test-results/screenshots/dashboard-signin-sandbox.
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'dashboard-signin-sandbox');

describe('Sign-in link from the sign-in page and the sandbox banner (issue 29 items 9, 10)', () => {
  let app: TestApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;
  const casey = uniqueEmail('casey');

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
    const world = await setupSplitWorld(app);
    // A Split with an email row makes Casey a contractor account (no password).
    await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [emailRow(casey, '25000', { fullName: 'Casey Row' })] }));
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('a contractor asks for a sign-in link on the sign-in page, follows it, and lands on Earnings', async () => {
    await go('/login');
    await page.getByRole('link', { name: 'Email me a sign-in link' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Email me a sign-in link');
    await page.getByLabel('Email').fill(casey);
    await expectAccessible(page, 'sign-in link request');
    await shoot('sign-in-link-request');
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await ui(page.getByRole('status')).toContainText(`If ${casey} belongs to a contractor account, a sign-in link is on its way.`);
    await shoot('sign-in-link-sent');
    const message = (await outbox(app)).filter((m) => m.to === casey && m.subject === 'Your Paysplit sign-in link').pop();
    expect(message).toBeDefined();
    await go(`/magic-link?token=${encodeURIComponent(new URL(message!.link).searchParams.get('token')!)}`);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await ui(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  }, 60_000);

  it('every signed-in page shows the sandbox banner with the sandbox clock offset', async () => {
    const magic = dataOf(await app.request('POST', '/api/auth/magic-link', { body: { email: casey } }), 202);
    expect(magic.requested).toBe(true);
    const message = (await outbox(app)).filter((m) => m.to === casey).pop()!;
    await go(`/magic-link?token=${encodeURIComponent(new URL(message.link).searchParams.get('token')!)}`);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
    await ui(page.getByTestId('sandbox-banner')).toHaveText('Sandbox · test money only · clock on real time');
    dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 86_400 + 2 * 3600 + 300 } }), 200);
    await go('/earnings');
    // 1 day 2 h 5 min asked; real time passing while it runs can make it 4 min.
    await ui(page.getByTestId('sandbox-banner')).toContainText('Sandbox · test money only · clock 1 day 2 h ');
    await ui(page.getByTestId('sandbox-banner')).toContainText(' min ahead of real time');
    await shoot('sandbox-banner');
  }, 60_000);
});
