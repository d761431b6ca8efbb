import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Frame, FrameLocator, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { dataOf, outbox } from '../support/split-fixtures';
import { expectAccessible } from './browser-support';
import { createdSession, createPlatform, expectBooks, latestCode, Platform, SESSIONS } from '../support/payout-embed-fixtures';

const CHROMIUM = '/usr/bin/chromium';
/**
 * The platform's pages are served over https by a local server under made-up names that Chromium maps to
 * 127.0.0.1: allowed origins must be https, and Chromium's Local Network Access checks would block a
 * public page (an intercepted request) from framing the service on 127.0.0.1.
 */
const HOSTS = ['platform.example', 'elsewhere.example'];

async function startPlatformSite(dir: string): Promise<{ port: number; close(): Promise<void> }> {
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=platform.example', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    {
      stdio: 'ignore',
    },
  );
  const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    const src = new URL(req.url ?? '/', 'https://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Platform</title><link rel="icon" href="data:,"><h1>Platform payouts</h1>
<script>window.messages=[];addEventListener('message',function(e){window.messages.push({origin:e.origin,data:e.data});});</script>
<iframe id="embed" title="Claim your payout" src="${src.replace(/"/g, '&quot;')}" style="width:100%;max-width:480px;height:560px;border:0"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Screenshots of every step at 360 and 1280 px, beside the buyer pages' (`npm run screenshots`; PAYOUT_EMBED_SCREENSHOTS names another folder). */
const SHOTS = process.env.PAYOUT_EMBED_SCREENSHOTS ?? join(__dirname, '..', '..', 'test-results', 'screenshots', 'payout-embed');

describe('Payout Embed page in a real browser', () => {
  let app: TestApp;
  let platform: Platform;
  let browser: BrowserContext;
  let profile: string;
  let site: { port: number; close(): Promise<void> };
  let PLATFORM_ORIGIN: string;
  let OTHER_ORIGIN: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`bash scripts/install-chromium.sh\` (browser tests never skip)`);
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp();
    platform = await createPlatform(app, 'Prize Platform', '500000');
    profile = mkdtempSync(join(tmpdir(), 'paysplit-chromium-'));
    site = await startPlatformSite(profile);
    PLATFORM_ORIGIN = `https://platform.example:${site.port}`;
    OTHER_ORIGIN = `https://elsewhere.example:${site.port}`;
    browser = await chromium.launchPersistentContext(join(profile, 'chromium'), {
      executablePath: CHROMIUM,
      headless: true,
      ignoreHTTPSErrors: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--host-resolver-rules=${HOSTS.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`,
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await app?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** embedUrl carries PUBLIC_BASE_URL (localhost:0 in tests); the service answers on app.url. */
  const local = (embedUrl: string) => embedUrl.replace(app.platform.config.publicBaseUrl, app.url);

  /** A page of `origin` (served by request interception) that frames `src` and records the messages it receives. */
  async function parentPage(origin: string, src: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${origin}/payouts?src=${encodeURIComponent(src)}`);
    return { page, errors };
  }

  const messages = (page: Page) => page.evaluate(() => (window as unknown as { messages: { origin: string; data: { type: string; status: string } }[] }).messages);
  const waitForText = async (scope: FrameLocator | Page, text: string) => scope.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 10_000 });

  it('completes a claim inside a frame of an allowed origin, posting each status to the parent only', async () => {
    const session = await createdSession(app, platform.apiKey, { amountCents: '4250', recipientEmail: 'winner@example.com', allowedOrigins: [PLATFORM_ORIGIN] });
    const { page, errors } = await parentPage(PLATFORM_ORIGIN, local(session.embedUrl));
    const frame = page.frameLocator('#embed');

    await frame.getByRole('heading', { name: 'Ann Lee, you have a payout' }).waitFor({ timeout: 10_000 });
    await waitForText(frame, '$42.50');
    // Who is paying is on the page and in the code email (issue 29 item 8).
    expect(await frame.locator('#sender').textContent()).toBe('From Prize Platform');
    // The deadline names its time zone (issue 29 item 8): "Claim by Dec 3, 2026, 4:00 PM UTC."
    expect(await frame.getByText(/^Claim by /).textContent()).toMatch(/^Claim by .+ (UTC|GMT[+-]?[\d:]*|[A-Z]{2,5})\.$/);
    const embedFrame = () => page.frames().find((f: Frame) => f.url().includes('/embed/payouts/'))!;
    await expectAccessible(embedFrame(), 'framed start');
    await frame.getByRole('button', { name: 'Email me a code' }).click();

    const codeInput = frame.getByLabel('6-digit code');
    await codeInput.waitFor();
    const codeMail = (await outbox(app)).filter((m) => m.to === 'winner@example.com').pop()!;
    expect(codeMail.subject).toBe('Your code to claim $42.50 from Prize Platform');
    expect(codeMail.body).toMatch(/^Prize Platform is paying you \$42\.50 through Paysplit\. Your payout code is \d{6}\./);
    // A malformed code is caught in the page: aria-invalid and focus on the field, nothing sent.
    await codeInput.fill('12');
    await frame.getByRole('button', { name: 'Verify code' }).click();
    await waitForText(frame, 'Enter the 6 digits from the email.');
    expect(await codeInput.getAttribute('aria-invalid')).toBe('true');
    expect(await codeInput.evaluate((el) => el === document.activeElement)).toBe(true);

    await codeInput.fill(await latestCode(app, 'winner@example.com'));
    await frame.getByRole('button', { name: 'Verify code' }).click();

    const wallet = frame.getByLabel('Wallet email');
    await wallet.waitFor();
    await expectAccessible(embedFrame(), 'framed wallet step');
    // A typo first: the address is shown back before anything is sent (issue 29 item 8), and can be changed.
    await wallet.fill('winer@wallet.example');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('heading', { name: 'Is this your wallet?' }).waitFor();
    expect(await frame.locator('#wallet-review').textContent()).toBe('winer@wallet.example');
    expect(await frame.getByRole('heading', { name: 'Payout sent' }).count()).toBe(0);
    await frame.getByRole('button', { name: 'Change the address' }).click();
    expect(await wallet.inputValue()).toBe('winer@wallet.example');
    await wallet.fill('winner@wallet.example');
    await frame.getByRole('button', { name: 'Continue' }).click();
    expect(await frame.locator('#wallet-review').textContent()).toBe('winner@wallet.example');
    await expectAccessible(embedFrame(), 'framed wallet check');
    await frame.getByRole('button', { name: /Send \$42\.50 to my wallet/ }).click();
    await frame.getByRole('heading', { name: 'Payout sent' }).waitFor({ timeout: 10_000 });
    await waitForText(frame, 'winner@wallet.example');
    await expectAccessible(embedFrame(), 'framed completed');
    await page.screenshot({ path: join(SHOTS, '1280-framed-completed.png') });
    await page.setViewportSize({ width: 360, height: 720 });
    await page.screenshot({ path: join(SHOTS, '360-framed-completed.png') });
    // Framed: no link back (the parent decides what comes next).
    expect(await frame.getByRole('link', { name: /Back to/ }).count()).toBe(0);

    expect((await dataOf(await app.request('GET', `${SESSIONS}/${session.id}`, { token: platform.apiKey }), 200)).status).toBe('completed');
    const received = await messages(page);
    expect(received.map((m) => m.data.status)).toEqual(['created', 'claimed', 'completed']);
    expect(received.every((m) => m.data.type === 'paysplit.payout_embed' && m.origin === app.url)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
    await expectBooks(app, platform, { availableCents: '495750', reservedCents: '0' });
  }, 60_000);

  it('cannot be framed by a page of another origin', async () => {
    const session = await createdSession(app, platform.apiKey, { amountCents: '100', allowedOrigins: [PLATFORM_ORIGIN] });
    const { page, errors } = await parentPage(OTHER_ORIGIN, local(session.embedUrl));
    await page.waitForTimeout(700);
    const frame = page.frames().find((f: Frame) => f !== page.mainFrame());
    const content = frame ? await frame.content().catch(() => '') : '';
    expect(content).not.toContain('you have a payout');
    expect(errors.join('\n')).toMatch(/frame-ancestors/);
    expect(await messages(page)).toEqual([]);
    await page.close();
    dataOf(await app.request('POST', `${SESSIONS}/${session.id}/cancel`, { token: platform.apiKey }), 200);
  }, 60_000);

  it.each([360, 1280])(
    'opened as a link at %i px: every step is readable and ends with a link back',
    async (width) => {
      const email = `shots${width}@example.com`;
      const session = await createdSession(app, platform.apiKey, { amountCents: '123456', recipientEmail: email, allowedOrigins: undefined });
      const page = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(String(e)));
      const shot = async (name: string) => {
        await page.screenshot({ path: join(SHOTS, `${width}-${name}.png`), fullPage: true });
        await expectAccessible(page, `${name} at ${width}px`);
      };

      await page.goto(local(session.embedUrl));
      await page.getByRole('button', { name: 'Email me a code' }).waitFor();
      await shot('1-start');
      await page.getByRole('button', { name: 'Email me a code' }).click();
      await page.getByLabel('6-digit code').waitFor();
      await page.getByLabel('6-digit code').fill(code6Wrong(await latestCode(app, email)));
      await page.getByRole('button', { name: 'Verify code' }).click();
      await waitForText(page, 'That code is not right');
      await shot('2-wrong-code');
      await page.getByLabel('6-digit code').fill(await latestCode(app, email));
      await page.getByRole('button', { name: 'Verify code' }).click();
      await page.getByLabel('Wallet email').waitFor();
      await shot('3-wallet');
      await page.getByLabel('Wallet email').fill('someone+fail@wallet.example');
      await page.getByRole('button', { name: 'Continue' }).click();
      await waitForText(page, 'Check every letter');
      await shot('3b-wallet-check');
      await page.getByRole('button', { name: /to my wallet/ }).click();
      await page.getByRole('heading', { name: 'The payout did not go through' }).waitFor({ timeout: 10_000 });
      await shot('4-failed');
      const back = page.getByRole('link', { name: /Back to the sender/ });
      expect(await back.getAttribute('href')).toBe('https://platform.example/done');
      // Nothing overflows sideways at this width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // The wrong code's 422 is the one message: Chromium logs every 4xx fetch, the page's script logs nothing.
      expect(errors).toEqual([expect.stringMatching(/status of 422/)]);
      await page.close();
    },
    60_000,
  );

  it('shows a clear page for an expired session', async () => {
    const session = await createdSession(app, platform.apiKey, { amountCents: '100', expiresInSeconds: 900, allowedOrigins: undefined });
    dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 901 } }), 200);
    const page = await browser.newPage();
    await page.setViewportSize({ width: 360, height: 700 });
    await page.goto(local(session.embedUrl));
    await page.getByRole('heading', { name: 'This payout has expired' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, '360-5-expired.png'), fullPage: true });
    await expectAccessible(page, 'expired');
    await page.close();
    const wrong = await browser.newPage();
    await wrong.goto(local(session.embedUrl).replace(/#t=.*/, '#t=wrongtoken-wrongtoken'));
    await wrong.getByRole('heading', { name: 'This payout link is not valid' }).waitFor({ timeout: 10_000 });
    await expectAccessible(wrong, 'link not valid');
    await wrong.close();
  }, 60_000);
});

function code6Wrong(code: string): string {
  return code === '000000' ? '111111' : '000000';
}
