import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { signup, startTestApp, TestApp } from '../support/test-app';
import { outbox } from '../support/split-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * Issue 29 item 9 in real Chromium: "Forgot password?" on the sign-in page, the reset link read from the sandbox
 * outbox, a new password chosen on the link's page, and a sign-in with it (the old one refused, the used link dead).
 * Screenshots at 360 and 1280 px go to test-results/screenshots/password-reset.
 */
const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots', 'password-reset');

describe('Forgot password in the dashboard (issue 29 item 9)', () => {
  let app: TestApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: BrowserContext;
  let page: Page;

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
  const signInWith = async (email: string, password: string) => {
    await go('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp();
    chromium = await launchChromium();
    browser = chromium.browser;
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  it('forgot password → the link from the outbox → a new password → signed in with it', async () => {
    const owner = await signup(app, 'Forgetful Staffing');
    await go('/login');
    await shoot('sign-in-with-forgot-link');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Forgot your password?');
    await page.getByLabel('Email').fill(owner.email);
    await expectAccessible(page, 'forgot password');
    await shoot('forgot-password');
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await ui(page.getByRole('status')).toContainText(`If ${owner.email} has a Paysplit account, a link to reset its password is on its way.`);
    await shoot('forgot-password-sent');

    const message = (await outbox(app)).filter((m) => m.to === owner.email && m.subject === 'Reset your Paysplit password').pop();
    expect(message).toBeDefined();
    const link = new URL(message!.link);
    expect(link.pathname).toBe('/dashboard/reset-password');
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
    // The single-use token leaves the address bar at once.
    expect(new URL(page.url()).search).toBe('');
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await ui(page.getByText('Use at least 8 characters.')).toBeVisible();
    await page.getByLabel('New password').fill('a brand new passphrase');
    await expectAccessible(page, 'reset password');
    await shoot('reset-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('Password changed');
    await shoot('reset-password-done');

    // The old password no longer works; the new one signs in.
    await signInWith(owner.email, 'correct horse battery');
    await ui(page.getByRole('alert')).toContainText('That email and password do not match an account.');
    await signInWith(owner.email, 'a brand new passphrase');
    await ui(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
    // The signup's session (the API's token) ended with the reset.
    expect((await app.request('GET', '/api/auth/me', { token: owner.sessionToken })).status).toBe(401);

    // The used link is refused with its code, and the page offers a new one.
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await page.getByLabel('New password').fill('yet another passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await ui(page.getByRole('heading', { level: 1 })).toHaveText('This link no longer works');
    await ui(page.getByRole('alert')).toContainText('PASSWORD_RESET_INVALID');
    await ui(page.getByRole('link', { name: 'Email me a new link' })).toBeVisible();
    await shoot('reset-password-used');
  }, 90_000);
});
