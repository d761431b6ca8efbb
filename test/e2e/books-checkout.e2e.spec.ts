import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { CheckoutBalanceDoc, CheckoutLedgerProjection, LEDGER_CHECKOUT_BALANCES } from '../../src/ledger/projections/checkout-ledger.projection';
import { StagedWriter } from '../../src/platform/projections/staged-writer';
import { DocumentReader } from '../../src/platform/read-store/document-store.port';
import { dataOf } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { allEvents, CARDS, confirm, createdCheckout, createMerchant, Merchant } from '../browser/checkout-fixtures';

const CLI = join(__dirname, '../../dist/src/cli.js');
const NOTHING: DocumentReader = { get: async () => null, find: async () => [], count: async () => 0 };
const MERCHANT_ACCOUNTS = ['merchant_balance', 'merchant_payout_in_transit', 'merchant_paid_out'];

/**
 * Checkout money in the books (issue 28 with issue 26's checkout ledger): capture, merchant payout (requested,
 * paid), refund and the netting of a negative balance appear as the merchant's balance transactions, in its
 * statements, in `balance?asOf=` and in `ledger:export`, and `ledger:verify` checks their lines.
 */
describe('books: checkout money as ledger lines', () => {
  let app: TestApp;
  let merchant: Merchant;
  const orders: string[] = [];
  let refundId: string;
  const instants: string[] = [];

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200).now as string;
  const mark = async () => {
    await app.eventCount();
    await advance(1);
    const now = dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
    instants.push(new Date(Date.parse(now) - 500).toISOString());
    await advance(1);
  };
  const get = (path: string, headers: Record<string, string> = {}) => app.request('GET', path, { token: merchant.apiKey, headers });
  async function paidOrder(amountMinorUnits: string, currency = 'USD') {
    const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', amountMinorUnits, currency });
    expect(dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200)).toEqual({ status: 'PAID' });
    orders.push(order.orderId);
    return order.orderId as string;
  }
  async function walk(query: string, limit = 4): Promise<any[]> {
    const rows: any[] = [];
    let cursor = '';
    for (;;) {
      const page = dataOf(await get(`/api/commerce/balance-transactions?limit=${limit}${query}${cursor}`), 200);
      rows.push(...page);
      if (page.length < limit) return rows;
      cursor = `&cursor=${page[page.length - 1].id}`;
    }
  }
  /** The checkout fields at `asOf` by replaying the log up to it through the checkout ledger in memory. */
  async function replayedCheckout(asOf: string) {
    const projection = new CheckoutLedgerProjection();
    const writer = new StagedWriter(NOTHING);
    for (let after: number | undefined; ;) {
      const batch = await app.platform.events.readAll({ after, maxCount: 1000 });
      if (batch.length === 0) break;
      for (const event of batch) if (event.metadata.occurredAt <= asOf && projection.handles(event)) await projection.apply(event, writer);
      after = batch[batch.length - 1]!.position;
    }
    const docs = await writer.find<CheckoutBalanceDoc>(LEDGER_CHECKOUT_BALANCES, { filter: { companyId: merchant.companyId } });
    return docs
      .sort((a, b) => (a.currency < b.currency ? -1 : 1))
      .map((d) => ({ currency: d.currency, checkoutBalanceCents: d.balanceCents, checkoutPayoutsInTransitCents: d.inTransitCents, checkoutPaidOutCents: d.paidOutCents }));
  }

  beforeAll(async () => {
    app = await startTestApp();
    merchant = await createMerchant(app, 'Books Shop');
    await mark();
    await paidOrder('1000'); // captured and paid out: 1000
    await mark();
    const refund = await app.request('POST', `/api/commerce/integration/checkout/orders/${orders[0]}/refunds`, {
      token: merchant.apiKey,
      body: { amountMinorUnits: '700', idempotencyKey: 'books-refund' },
    });
    refundId = dataOf(refund, 201).refundId;
    await mark(); // the balance is -700: refunded after the payout
    await paidOrder('500'); // nets 500 of it, a payout of 0
    await paidOrder('300'); // nets the last 200, pays out 100
    await mark();
    await paidOrder('2500', 'EUR');
    await mark();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it("lists capture, payout, paid and refund lines on the merchant's accounts, with source, postingId and eventId, adding up to the balance", async () => {
    const rows = await walk('');
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const eventIds = new Set((await allEvents(app)).map((e) => e.id));
    for (const row of rows) {
      expect(MERCHANT_ACCOUNTS.map((a) => `${a}:${merchant.companyId}`)).toContain(row.account);
      expect(row).toMatchObject({ id: expect.stringMatching(/^bt_\d+_\d+$/), source: expect.stringMatching(/^ord_/), postingId: expect.stringMatching(/^ord_[0-9a-z]+:\d{4}$/) });
      expect(orders).toContain(row.source);
      expect(row.postingId.startsWith(`${row.source}:`)).toBe(true);
      expect(eventIds).toContain(row.eventId);
    }
    const types = new Set(rows.map((r) => r.type));
    for (const type of ['checkout_capture', 'checkout_payout', 'checkout_payout_paid', 'checkout_refund']) expect(types).toContain(type);
    const refundLine = rows.find((r) => r.type === 'checkout_refund');
    expect(refundLine).toMatchObject({ source: orders[0], amountCents: '-700', account: `merchant_balance:${merchant.companyId}` });
    expect(refundLine.description).toContain(refundId);

    // Per account and currency, oldest first: running balances; their ends are GET /api/commerce/balance's checkout fields.
    const sums = new Map<string, bigint>();
    for (const row of [...rows].reverse()) {
      const key = `${row.currency}:${row.accountType}`;
      const balance = (sums.get(key) ?? 0n) + BigInt(row.amountCents);
      expect(BigInt(row.balanceAfterCents)).toBe(balance);
      sums.set(key, balance);
    }
    const sum = (currency: string, type: string) => (sums.get(`${currency}:${type}`) ?? 0n).toString();
    const balances = dataOf(await get('/api/commerce/balance'), 200);
    expect(balances.map((b: any) => [b.currency, b.checkoutBalanceCents, b.checkoutPayoutsInTransitCents, b.checkoutPaidOutCents])).toEqual(
      ['EUR', 'USD'].map((c) => [c, sum(c, 'merchant_balance'), sum(c, 'merchant_payout_in_transit'), sum(c, 'merchant_paid_out')]),
    );
    expect(balances.find((b: any) => b.currency === 'USD')).toMatchObject({ checkoutBalanceCents: '0', checkoutPaidOutCents: '1100' });
    // Filters reach the checkout lines too.
    expect(await walk(`&source=${orders[0]}`)).toEqual(rows.filter((r) => r.source === orders[0]));
    expect(await walk('&type=checkout_refund')).toEqual([refundLine]);
    expect(await walk('&currency=EUR&account=merchant_paid_out')).toEqual(rows.filter((r) => r.currency === 'EUR' && r.accountType === 'merchant_paid_out'));
  });

  it('answers balance?asOf= at each instant as a replay of the log up to it', async () => {
    for (const asOf of instants) {
      const answered = dataOf(await get(`/api/commerce/balance?asOf=${encodeURIComponent(asOf)}`), 200).map((b: any) => ({
        currency: b.currency,
        checkoutBalanceCents: b.checkoutBalanceCents,
        checkoutPayoutsInTransitCents: b.checkoutPayoutsInTransitCents,
        checkoutPaidOutCents: b.checkoutPaidOutCents,
      }));
      expect(answered).toEqual(await replayedCheckout(asOf));
    }
    expect(dataOf(await get(`/api/commerce/balance?asOf=${instants[2]}`), 200)).toEqual([expect.objectContaining({ currency: 'USD', checkoutBalanceCents: '-700' })]);
  });

  it('gives statements of the merchant accounts whose opening plus lines is the closing, and a CSV that parses into the JSON rows', async () => {
    for (let i = 0; i + 1 < instants.length; i++) {
      const statements = dataOf(await get(`/api/commerce/statements?from=${instants[i]}&to=${instants[i + 1]}`), 200);
      for (const s of statements) {
        expect(MERCHANT_ACCOUNTS).toContain(s.accountType);
        const sum = s.lines.reduce((total: bigint, line: any) => total + BigInt(line.amountCents), 0n);
        expect(BigInt(s.openingBalanceCents) + sum).toBe(BigInt(s.closingBalanceCents));
      }
    }
    const [usd] = dataOf(await get(`/api/commerce/statements?account=merchant_balance&currency=USD&from=${instants[1]}&to=${instants[3]}`), 200);
    expect(usd).toMatchObject({ openingBalanceCents: '0', closingBalanceCents: '0' });
    expect(usd.totals).toEqual(expect.arrayContaining([{ type: 'checkout_refund', count: 1, amountCents: '-700' }]));
    const [owing] = dataOf(await get(`/api/commerce/statements?account=merchant_balance&currency=USD&from=${instants[1]}&to=${instants[2]}`), 200);
    expect(owing).toMatchObject({ openingBalanceCents: '0', closingBalanceCents: '-700' });

    const json = await walk('', 100);
    const csv: Record<string, string>[] = parse((await get('/api/commerce/balance-transactions', { accept: 'text/csv' })).text, { columns: true });
    expect(csv.map((r) => [r.id, r.type, r.source, r.amountCents, r.balanceAfterCents, r.postingId, r.eventId])).toEqual(
      json.map((r) => [r.id, r.type, r.source, r.amountCents, r.balanceAfterCents, r.postingId, r.eventId]),
    );
  });

  it('ledger:verify books every checkout entry as a line, and ledger:export carries them with totals that tie', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, SANDBOX: 'true', DATA_DIR: app.platform.config.dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
    const verify = run('ledger:verify');
    expect(verify.stdout).toContain('ledger OK');
    expect(verify.status).toBe(0);
    const exported = run('ledger:export', '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z');
    expect(exported.status).toBe(0);
    // Every posting's entries, checkout ones included, are lines (ledger:verify's count), and the export has them all.
    const lineCount = Number(/^(\d+) ledger lines/m.exec(verify.stdout)![1]);
    const rows: Record<string, string>[] = parse(exported.stdout, { columns: true });
    expect(rows).toHaveLength(lineCount);
    expect(/^totals: (.*)$/m.exec(exported.stderr)![1]).toBe(/^totals: (.*)$/m.exec(verify.stdout)![1]);
    expect(rows.filter((r) => r.type === 'checkout_capture').map((r) => r.source)).toEqual(expect.arrayContaining(orders));
    const mine: Record<string, string>[] = parse(run('ledger:export', '--company', merchant.companyId, '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z').stdout, {
      columns: true,
    });
    expect(mine.map((r) => r.id)).toEqual(rows.filter((r) => r.account.endsWith(`:${merchant.companyId}`) && !r.account.startsWith('processor_clearing')).map((r) => r.id));
    expect(mine.length).toBeGreaterThan(0);
  });
});
