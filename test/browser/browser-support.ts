import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Frame, FrameLocator, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium through playwright-core, on a fresh profile (playwright-core wants the dir as a parameter, not as --user-data-dir). */
export async function launchChromium(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`bash scripts/install-chromium.sh\` (browser tests never skip)`);
  const profile = mkdtempSync(join(tmpdir(), 'paysplit-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function fillCard(page: Page | Frame | FrameLocator, number: string, expiry = { month: '12', year: '2040' }): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry month (MM)').fill(expiry.month);
  await page.getByLabel('Expiry year (YYYY)').fill(expiry.year);
  await page.getByLabel('Security code (CVC)').fill('123');
}

/** A page on another origin (another loopback port): the merchant's return page and embedding pages. */
export async function startMerchantSite(routes: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(routes[path] ?? `<!doctype html><title>Merchant</title><h1>Thanks from the merchant</h1><p id="query">${req.url}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Minimal web-first assertions over playwright-core (which ships no test runner). */
export function ui(subject: unknown) {
  const poll = async (check: () => Promise<boolean>, describe: () => Promise<string>, timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > until) throw new Error(await describe());
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const locator = subject as unknown as import('playwright-core').Locator;
  return {
    toContainText: (text: string) =>
      poll(
        async () => (await locator.first().textContent())?.includes(text) ?? false,
        async () =>
          `expected text containing "${text}", got "${await locator
            .first()
            .textContent()
            .catch(() => null)}"`,
      ),
    toHaveText: (text: string) =>
      poll(
        async () => (await locator.first().textContent())?.trim() === text,
        async () =>
          `expected text "${text}", got "${await locator
            .first()
            .textContent()
            .catch(() => null)}"`,
      ),
    toBeVisible: () =>
      poll(
        () => locator.first().isVisible(),
        async () => 'expected the element to be visible',
      ),
    toHaveAttribute: (name: string, value: string) =>
      poll(
        async () => (await locator.first().getAttribute(name)) === value,
        async () =>
          `expected ${name}="${value}", got "${await locator
            .first()
            .getAttribute(name)
            .catch(() => null)}"`,
      ),
    toHaveCount: (count: number) =>
      poll(
        async () => (await locator.count()) === count,
        async () => `expected ${count} elements, got ${await locator.count()}`,
      ),
  };
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the document of a page or frame and fails on any serious or critical violation.
 * The script is evaluated through the DevTools protocol rather than added with `addScriptTag`: that
 * inserts an inline `<script>`, which the pages' policy (`script-src 'self'`) rightly refuses.
 */
export async function expectAccessible(target: Page | Frame, label: string): Promise<void> {
  if (!(await target.evaluate(() => 'axe' in window))) await target.evaluate(AXE_SOURCE);
  const violations = await target.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ page: label, violations: serious }).toEqual({ page: label, violations: [] });
}
