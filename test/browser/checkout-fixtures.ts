/** Shared by the checkout e2e suite (test/e2e/checkout.e2e.spec.ts) and the browser suite. */
import { TestApp, TestResponse } from '../support/test-app';
import { createCompany, dataOf, issueApiKey } from '../support/split-fixtures';

export const ORDER_ID = /^ord_[0-9a-z]{26}$/;
export const SUBSCRIPTION_ID = /^sub_[0-9a-z]{26}$/;
export const CARDS = { ok: '4242424242424242', declines: '4000000000000002', authenticate: '4000002500003155', offSessionDeclines: '4000000000000341' } as const;

export interface Merchant {
  companyId: string;
  sessionToken: string;
  apiKey: string;
}

export async function createMerchant(app: TestApp, name = 'Shop'): Promise<Merchant> {
  const company = await createCompany(app, name);
  return { companyId: company.companyId, sessionToken: company.sessionToken, apiKey: await issueApiKey(app, company.sessionToken, ['checkout:write']) };
}

let counter = 0;
export const checkoutBody = (overrides: Record<string, unknown> = {}) => ({
  amountMinorUnits: '1999',
  currency: 'USD',
  provider: 'CARD_PROCESSOR',
  returnUrl: 'https://shop.example/thanks?cart=42',
  idempotencyKey: `key-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 8)}`,
  ...overrides,
});

export const createCheckout = (app: TestApp, apiKey: string, body: unknown): Promise<TestResponse> =>
  app.request('POST', '/api/commerce/integration/checkout', { token: apiKey, body });

export async function createdCheckout(app: TestApp, apiKey: string, overrides: Record<string, unknown> = {}) {
  return dataOf(await createCheckout(app, apiKey, checkoutBody(overrides)), 201);
}

export const card = (number: string) => ({ number, expMonth: 12, expYear: 2040, cvc: '123' });

export const confirm = (app: TestApp, orderId: string, clientSecret: string, number: string) =>
  app.request('POST', `/api/commerce/checkout/orders/${orderId}/confirm`, { body: { clientSecret, card: card(number) } });

export async function orderStatus(app: TestApp, orderId: string) {
  return dataOf(await app.request('GET', `/api/commerce/checkout/orders/${orderId}/status`), 200);
}

export const form = (app: TestApp, path: string, fields: Record<string, string>) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

export async function allEvents(app: TestApp) {
  const out = [];
  let after: number | undefined;
  for (;;) {
    const batch = await app.platform.events.readAll({ after, maxCount: 1000 });
    if (batch.length === 0) return out;
    out.push(...batch);
    after = batch[batch.length - 1]!.position;
  }
}

export const advance = async (app: TestApp, seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
