import { replayLedger, verifyLedger } from '../../src/ledger/application/ledger-verifier';
import { TestApp, TestResponse } from './test-app';
import { createCompany, dataOf, issueApiKey, outbox } from './split-fixtures';

export const SESSIONS = '/api/commerce/integration/payout-embed/sessions';
export const SESSION_ID = /^pes_[0-9a-z]{26}$/;

export interface Platform {
  companyId: string;
  sessionToken: string;
  apiKey: string;
}

export async function createPlatform(app: TestApp, name = 'Prize Co', topUpCents: string | null = '100000'): Promise<Platform> {
  const company = await createCompany(app, name);
  const apiKey = await issueApiKey(app, company.sessionToken, ['payout:write'], 'payouts');
  if (topUpCents) await topUp(app, company.sessionToken, topUpCents);
  return { companyId: company.companyId, sessionToken: company.sessionToken, apiKey };
}

export const topUp = async (app: TestApp, sessionToken: string, amountCents: string, currency = 'USD') =>
  dataOf(await app.request('POST', '/api/sandbox/balance/top-up', { token: sessionToken, body: { amountCents, currency } }), 201);

export const sessionBody = (overrides: Record<string, unknown> = {}) => ({
  recipientEmail: 'ann@example.com',
  recipientName: 'Ann Lee',
  amountCents: '2500',
  currency: 'USD',
  description: 'Contest prize',
  allowedOrigins: ['https://platform.example'],
  returnUrl: 'https://platform.example/done',
  ...overrides,
});

export const createSession = (app: TestApp, apiKey: string, body: unknown): Promise<TestResponse> => app.request('POST', SESSIONS, { token: apiKey, body });

export async function createdSession(app: TestApp, apiKey: string, overrides: Record<string, unknown> = {}): Promise<any> {
  return dataOf(await createSession(app, apiKey, sessionBody(overrides)), 201);
}

/** The id and embed token out of an embedUrl (`.../embed/payouts/<id>#t=<token>`). */
export function embedOf(session: { embedUrl: string }): { id: string; token: string; path: string } {
  const url = new URL(session.embedUrl);
  return { id: url.pathname.split('/').pop()!, token: new URLSearchParams(url.hash.slice(1)).get('t')!, path: url.pathname };
}

export const embedCall = (app: TestApp, session: { embedUrl: string }, method: string, suffix = '', body?: unknown, token = embedOf(session).token) =>
  app.request(method, `/api/embed/payouts/${embedOf(session).id}${suffix}`, { token, body });

/** The latest claim code emailed to `email` (sandbox outbox). */
export async function latestCode(app: TestApp, email: string): Promise<string> {
  const messages = (await outbox(app)).filter((m) => m.to === email && /payout code is \d{6}/.test(m.body));
  const last = messages[messages.length - 1];
  if (!last) throw new Error(`no claim code was sent to ${email}`);
  return /payout code is (\d{6})/.exec(last.body)![1]!;
}

export interface BalanceRow {
  availableCents: string;
  reservedCents: string;
  owedToContractorsCents: string;
}

export async function balanceOf(app: TestApp, token: string, currency = 'USD'): Promise<BalanceRow> {
  const balances: (BalanceRow & { currency: string })[] = dataOf(await app.request('GET', '/api/commerce/balance', { token }), 200);
  const row = balances.find((b) => b.currency === currency);
  return row
    ? { availableCents: row.availableCents, reservedCents: row.reservedCents, owedToContractorsCents: row.owedToContractorsCents }
    : { availableCents: '0', reservedCents: '0', owedToContractorsCents: '0' };
}

/**
 * The books agree: background work settled, ledger:verify finds no violation, and the company's
 * company_balance and payout_reserve accounts (replayed from the whole log) equal GET /api/commerce/balance
 * and the expected figures, to the cent.
 */
export async function expectBooks(app: TestApp, platform: Platform, expected: { availableCents: string; reservedCents: string }, currency = 'USD') {
  await app.eventCount();
  const { postings, splits } = await replayLedger(app.platform.events);
  const report = verifyLedger(postings, splits);
  expect(report.violations).toEqual([]);
  const sum = (account: string) =>
    postings
      .filter((p) => p.currency === currency)
      .flatMap((p) => p.entries)
      .filter((e) => e.account === account)
      .reduce((total, e) => total + BigInt(e.credit) - BigInt(e.debit), 0n)
      .toString();
  const fromLedger = { availableCents: sum(`company_balance:${platform.companyId}`), reservedCents: sum(`payout_reserve:${platform.companyId}`) };
  expect(fromLedger).toEqual(expected);
  // A platform without Splits owes no contractor: all of company_balance is available.
  expect(await balanceOf(app, platform.apiKey, currency)).toEqual({ ...expected, owedToContractorsCents: '0' });
}
