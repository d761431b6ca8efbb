import { BrowserContext, Page } from 'playwright-core';
import { signup, startTestApp, TestApp } from '../support/test-app';
import { createSubVendor, issueApiKey, outbox } from '../support/split-fixtures';
import { expectAccessible, launchChromium, ui } from './browser-support';

/**
 * A link a person clicks in an email lands on a page in a real browser; the same URL still answers JSON
 * to an API client (here: a fetch asking for JSON). Opening the link spends nothing; the button does.
 */
describe('Email landings in a real browser', () => {
  let app: TestApp;
  let vendorKey: string;
  let browser: BrowserContext;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let consoleErrors: string[] = [];
  beforeAll(async () => {
    app = await startTestApp();
    vendorKey = await issueApiKey(app, (await signup(app, 'Landing Browser Co')).sessionToken);
    chromium = await launchChromium();
    browser = chromium.browser;
    browser.on('page', (page) => {
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(error.message));
    });
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  let counter = 0;
  async function contractorLink(): Promise<{ email: string; link: string }> {
    const email = `browser-landing-${++counter}@example.test`;
    await createSubVendor(app, vendorKey, { email });
    const message = (await outbox(app)).filter((m) => m.to === email).pop()!;
    return { email, link: message.link.replace(app.platform.config.publicBaseUrl, app.url) };
  }
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first();

  it('opening the link twice shows the Sign in page and spends nothing; Sign in opens a session cookie; the used link offers a new one', async () => {
    consoleErrors = [];
    const { email, link } = await contractorLink();
    const page = await browser.newPage();
    for (let i = 0; i < 2; i += 1) {
      const response = await page.goto(link);
      expect(response!.headers()['content-type']).toMatch(/^text\/html/);
      await ui(heading(page)).toHaveText('Sign in to Paysplit');
    }
    await expectAccessible(page, 'magic-link landing');

    // Keyboard only: the button is the first thing to tab to.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign in');
    await page.keyboard.press('Enter');
    await ui(heading(page)).toHaveText('You are signed in');
    const cookie = (await browser.cookies(app.url)).find((c) => c.name === 'paysplit_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.value).toMatch(/^sess_/);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect((await app.request('GET', '/api/commerce/company', { token: cookie.value })).status).toBe(200);

    // Back to the landing page and press again: the link is spent.
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(heading(page)).toHaveText('This sign-in link does not work any more');
    await expectAccessible(page, 'magic-link not valid');
    const before = (await outbox(app)).filter((m) => m.to === email).length;
    await page.getByLabel('Your email address').fill(email);
    await page.getByRole('button', { name: 'Email me a new link' }).click();
    await ui(heading(page)).toHaveText('Check your email');
    expect((await outbox(app)).filter((m) => m.to === email)).toHaveLength(before + 1);
    await page.close();
    // The spent link's page is a 401 by contract; Chromium logs a document's own status. Nothing else.
    expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  }, 60_000);

  it('the same URL answers the page to a client that asks for JSON too, and does not spend the link (issue 24)', async () => {
    const { link } = await contractorLink();
    const page = await browser.newPage();
    await page.goto(`${app.url}/favicon.svg`);
    const answer = await page.evaluate(async (url) => {
      const response = await fetch(url, { headers: { accept: 'application/json' } });
      return { type: response.headers.get('content-type'), body: await response.text() };
    }, link);
    expect(answer.type).toMatch(/^text\/html/);
    expect(answer.body).not.toContain('sess_');
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ui(heading(page)).toHaveText('You are signed in');
    await page.close();
  }, 60_000);
});
