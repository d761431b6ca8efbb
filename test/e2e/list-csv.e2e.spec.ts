import { parse } from 'csv-parse/sync';
import { CARDS, confirm, createdCheckout, createMerchant } from '../browser/checkout-fixtures';
import { createdSession, createPlatform } from '../support/payout-embed-fixtures';
import { createCompany, createCreator, createdSplit, createEnterprise, creatorRow, dataOf, issueApiKey, newIdempotencyKey } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { answer, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/** What a cell of a JSON value becomes in the CSV: formula starts neutralised with a leading `'` (plain numbers are left alone). */
const cell = (value: string | number | boolean | null | undefined): string => {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
};
const decimal = (cents: string) => {
  const negative = cents.startsWith('-');
  const digits = (negative ? cents.slice(1) : cents).padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/**
 * CSV of the Split, order, Payout Embed and delivery lists (issue 28 item 4): `Accept: text/csv` answers
 * every row of the list (no paging) as RFC 4180 that a real CSV parser reads into the JSON list's rows,
 * amounts as decimals and minor units, formula starts neutralised.
 */
describe('CSV exports of the lists over HTTP', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '500' });
    receiver = await startWebhookReceiver(answer(500));
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  const tick = () => app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 1 } });
  const csvOf = async (path: string, token: string) => {
    const response = await app.request('GET', path, { token, headers: { accept: 'text/csv' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
    expect(response.text.endsWith('\r\n')).toBe(true);
    return { text: response.text, records: parse(response.text, { columns: true }) as Record<string, string>[] };
  };
  const jsonOf = async (path: string, token: string) => dataOf(await app.request('GET', path, { token }), 200) as any[];
  /** Every column named like a top-level scalar of the JSON row holds that value. */
  const expectSameScalars = (records: Record<string, string>[], rows: any[]) => {
    expect(records.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    records.forEach((record, i) => {
      for (const [header, value] of Object.entries(record)) {
        const json = rows[i][header];
        if (json === undefined || (typeof json === 'object' && json !== null)) continue;
        expect([header, value]).toEqual([header, cell(json)]);
      }
    });
  };

  it('the Split lists (integration, outgoing, incoming): one row per Split, amounts as decimals and cents, a company name that starts a formula neutralised', async () => {
    const sme = await createCompany(app, '=HYPERLINK("http://evil.example"), Staffing');
    const apiKey = await issueApiKey(app, sme.sessionToken);
    const [enterprise, creator] = await Promise.all([createEnterprise(app, '+Globex "Corp"'), createCreator(app, { fullName: 'Casey Creator' })]);
    const ids: string[] = [];
    for (const amount of ['25000', '123', '7']) {
      const split = await createdSplit(app, apiKey, {
        enterpriseCompanyId: enterprise.companyId,
        apContactBusinessProfileId: enterprise.apContactId,
        clientIdempotencyKey: newIdempotencyKey('-csv'),
        roster: [creatorRow(creator, amount)],
      });
      ids.push(split.id);
      await tick();
    }
    dataOf(await app.request('POST', `/api/commerce/splits/${ids[0]}/reject`, { token: enterprise.sessionToken, body: { revision: 1, reason: 'no' } }), 200);

    for (const [path, token] of [
      ['/api/commerce/integration/splits', apiKey],
      ['/api/commerce/splits/outgoing', sme.sessionToken],
      ['/api/commerce/splits/incoming', enterprise.sessionToken],
    ] as const) {
      const json = await jsonOf(`${path}?limit=100`, token);
      expect(json.map((s) => s.id)).toEqual([...ids].reverse());
      const { text, records } = await csvOf(path, token);
      expectSameScalars(records, json);
      expect(records.map((r) => [r.totalAmount, r.totalAmountCents, r.rows])).toEqual(json.map((s) => [decimal(s.totalAmountCents), s.totalAmountCents, '1']));
      expect(records.map((r) => r.status)).toEqual(['PENDING_APPROVAL', 'PENDING_APPROVAL', 'REJECTED']);
      expect(records[0]!.smeCompanyName).toBe(`'${sme.name}`);
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example""), Staffing"`);
      expect(records[0]!.enterpriseCompanyName).toBe(`'+Globex "Corp"`);
      // The CSV ignores paging: every Split, whatever ?limit says.
      expect((await csvOf(`${path}?limit=1&page=2`, token)).records).toHaveLength(3);
    }
    // ?status= filters the CSV like the JSON.
    expect((await csvOf('/api/commerce/splits/outgoing?status=REJECTED', sme.sessionToken)).records.map((r) => r.id)).toEqual([ids[0]]);
  });

  it("the merchant's orders: every order with its amounts, refunded amount and card, a reference that starts with @ neutralised", async () => {
    const merchant = await createMerchant(app, 'Csv Shop');
    const open = await createdCheckout(app, merchant.apiKey, { amountMinorUnits: '1000', checkoutMode: 'EMBEDDED', externalOrderRef: '@cart-1' });
    await tick();
    const paid = await createdCheckout(app, merchant.apiKey, { amountMinorUnits: '2005', checkoutMode: 'EMBEDDED', externalOrderRef: 'cart-2' });
    dataOf(await confirm(app, paid.orderId, paid.clientSecret, CARDS.ok), 200);
    await app.eventCount();

    const json = await jsonOf('/api/commerce/checkout/orders?limit=100', merchant.sessionToken);
    expect(json.map((o) => o.id)).toEqual([paid.orderId, open.orderId]);
    const { records } = await csvOf('/api/commerce/checkout/orders', merchant.sessionToken);
    expectSameScalars(records, json);
    expect(records.map((r) => [r.amount, r.amountCents, r.refunded, r.refundedCents, r.externalOrderRef, r.cardLast4])).toEqual([
      ['20.05', '2005', '0.00', '0', 'cart-2', '4242'],
      ['10.00', '1000', '0.00', '0', "'@cart-1", ''],
    ]);
    expect((await csvOf('/api/commerce/checkout/orders?status=PAID', merchant.sessionToken)).records.map((r) => r.id)).toEqual([paid.orderId]);
  });

  it('the Payout Embed sessions: every session, never the embed URL (it holds the page token)', async () => {
    const platform = await createPlatform(app, 'Csv Prizes', '100000');
    const first = await createdSession(app, platform.apiKey, { amountCents: '2500', description: '-1 for the "winner", really' });
    await tick();
    const second = await createdSession(app, platform.apiKey, { amountCents: '99', recipientName: null });
    const json = await jsonOf('/api/commerce/integration/payout-embed/sessions?limit=100', platform.apiKey);
    expect(json.map((s) => s.id)).toEqual([second.id, first.id]);
    const { text, records } = await csvOf('/api/commerce/integration/payout-embed/sessions', platform.apiKey);
    expectSameScalars(records, json);
    expect(records.map((r) => [r.amount, r.amountCents, r.description])).toEqual([
      ['0.99', '99', 'Contest prize'],
      ['25.00', '2500', `'-1 for the "winner", really`],
    ]);
    expect(Object.keys(records[0]!)).not.toContain('embedUrl');
    expect(text).not.toContain(json[0].embedUrl.split('#t=')[1]);
  });

  it("an endpoint's delivery log: one row per delivery with its last attempt's outcome, filtered like the JSON", async () => {
    const company = await createCompany(app, 'Csv Hooks');
    const endpoint = dataOf(
      await app.request('POST', '/api/commerce/webhooks/endpoints', { token: company.sessionToken, body: { url: `${receiver.url}/csv`, eventTypes: ['split.leg_a.approved'] } }),
      201,
    );
    for (let i = 0; i < 2; i += 1) {
      expect((await app.request('POST', `/api/commerce/webhooks/endpoints/${endpoint.id}/test`, { token: company.sessionToken })).status).toBe(200);
      await tick();
    }
    const path = `/api/commerce/webhooks/endpoints/${endpoint.id}/deliveries`;
    const json = await jsonOf(`${path}?limit=100`, company.sessionToken);
    expect(json).toHaveLength(2);
    const { records } = await csvOf(path, company.sessionToken);
    expectSameScalars(records, json);
    expect(records.map((r) => [r.eventType, r.attempts, r.lastResponseStatus, r.lastError])).toEqual(
      json.map((d) => [d.eventType, String(d.attempts.length), String(d.attempts.at(-1).responseStatus), d.attempts.at(-1).error]),
    );
    expect(records[0]!.lastResponseStatus).toBe('500');
    expect((await csvOf(`${path}?status=succeeded`, company.sessionToken)).records).toEqual([]);
    // Another company's endpoint is 404 as CSV too.
    const other = await createCompany(app, 'Csv Nosy');
    expect((await app.request('GET', path, { token: other.sessionToken, headers: { accept: 'text/csv' } })).status).toBe(404);
  });
});
