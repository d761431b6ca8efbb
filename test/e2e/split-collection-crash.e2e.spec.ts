import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite/sqlite-event-store';
import { deterministicId } from '../../src/platform/ids/ids';
import { tempDir } from '../support/temp-dir';
import { startTestApp, TestApp } from '../support/test-app';
import { createdSplit, createEnterprise, dataOf, Enterprise, setupSplitWorld, splitBody, SplitWorld, subVendorRow } from '../support/split-fixtures';

/**
 * Issue 27: an invoice paid from the enterprise's balance spans two streams (the balance takes the money,
 * then the invoice records the payment). These tests play a crash between the two appends: the first half
 * is appended to the stopped app's log, the app restarts on the same DATA_DIR, and nothing may be left
 * taken from the balance without a payment recorded on the invoice. `npm run build` first (ledger:verify).
 */
describe('Split collection: a balance payment a crash interrupted', () => {
  let app: TestApp;
  afterEach(async () => {
    await app?.close();
  });

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const invoice = async (enterprise: Enterprise, id: string) => dataOf(await app.request('GET', `/api/commerce/invoices/${id}`, { token: enterprise.sessionToken }), 200);
  const available = async (enterprise: Enterprise) =>
    (dataOf(await app.request('GET', '/api/commerce/balance', { token: enterprise.sessionToken }), 200) as { currency: string; availableCents: string }[]).find(
      (b) => b.currency === 'USD',
    )?.availableCents ?? '0';
  const balanceEvents = async (enterprise: Enterprise) => (await app.platform.events.readStream(`balance-${enterprise.companyId}`)).map((e) => e.type);

  function expectLedgerClean(dataDir: string): void {
    const verify = spawnSync(process.execPath, [join(__dirname, '../../dist/src/cli.js'), 'ledger:verify'], {
      env: { ...process.env, SANDBOX: 'true', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(verify.stdout).toContain('ledger OK');
    expect(verify.status).toBe(0);
  }

  /** A funded Split billed to a new enterprise with `topUpCents` on its balance, and its invoice. */
  async function billedEnterprise(world: SplitWorld, totalAmountCents: string, topUpCents: string): Promise<{ enterprise: Enterprise; bill: any }> {
    const enterprise = await createEnterprise(app, `Initech ${randomUUID().slice(0, 6)}`);
    const created = await createdSplit(
      app,
      world.sme.apiKey,
      splitBody({ ...world, enterprise }, { totalAmountCents, roster: [subVendorRow(world.plainVendor, totalAmountCents)] }),
    );
    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: enterprise.sessionToken, body: { revision: created.revision } }), 200);
    await advance(1);
    const split = dataOf(await app.request('GET', `/api/commerce/integration/splits/${created.id}`, { token: world.sme.apiKey }), 200);
    dataOf(await app.request('POST', '/api/sandbox/balance/top-up', { token: enterprise.sessionToken, body: { currency: 'USD', amountCents: topUpCents } }), 201);
    return { enterprise, bill: await invoice(enterprise, split.invoiceId) };
  }

  /** The crash: the balance stream took the payment (what PayInvoiceFromBalanceMessage appends), the invoice never heard of it. */
  async function stopAfterTheDebit(dataDir: string, enterprise: Enterprise, bill: { id: string; currency: string }, amountCents: string, idempotencyKey: string) {
    const paymentId = deterministicId('ipm', enterprise.companyId, bill.id, idempotencyKey);
    const streamId = `balance-${enterprise.companyId}`;
    const revision = (await app.platform.events.readStream(streamId)).length - 1;
    await app.close();
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    const paidAt = '2026-01-01T00:00:00.000Z';
    await store.append(
      streamId,
      [
        {
          id: randomUUID(),
          type: 'company_balance.invoice_paid',
          data: { companyId: enterprise.companyId, invoiceId: bill.id, paymentId, currency: bill.currency, amountCents, paidAt },
          metadata: { correlationId: randomUUID(), causationId: null, actor: enterprise.userId, occurredAt: paidAt },
        },
      ],
      revision,
    );
    await store.close();
    return paymentId;
  }

  it('records the payment on its invoice after the restart, without a retry; a retry with the same key takes nothing twice', async () => {
    const dataDir = tempDir('collection-crash');
    app = await startTestApp({ DATA_DIR: dataDir });
    const world = await setupSplitWorld(app);
    const { enterprise, bill } = await billedEnterprise(world, '10000', '15000');
    expect(await available(enterprise)).toBe('15000');
    const paymentId = await stopAfterTheDebit(dataDir, enterprise, bill, '10000', 'pay-crash');

    app = await startTestApp({ DATA_DIR: dataDir });
    await app.eventCount(); // settles: every subscriber at the head of the log
    const paid = await invoice(enterprise, bill.id);
    expect(paid).toMatchObject({ status: 'PAID', outstandingCents: '0' });
    expect(paid.payments).toEqual([expect.objectContaining({ paymentId, method: 'BALANCE', amountCents: '10000', appliedCents: '10000', overpaidCents: '0' })]);
    expect(await available(enterprise)).toBe('5000');
    // The enterprise's retry with its key finds the payment done: 200, nothing taken twice.
    const retried = dataOf(
      await app.request('POST', `/api/commerce/invoices/${bill.id}/payments`, { token: enterprise.sessionToken, body: { amountCents: '10000', idempotencyKey: 'pay-crash' } }),
      200,
    );
    expect(retried.payments).toHaveLength(1);
    expect(await available(enterprise)).toBe('5000');
    expect(await balanceEvents(enterprise)).toEqual(['company_balance.topped_up', 'company_balance.invoice_paid']);
    expectLedgerClean(dataDir);
  }, 60_000);

  it('gives the money back to the balance when the invoice was meanwhile paid by bank transfer', async () => {
    const dataDir = tempDir('collection-crash-paid');
    app = await startTestApp({ DATA_DIR: dataDir });
    const world = await setupSplitWorld(app);
    const { enterprise, bill } = await billedEnterprise(world, '8000', '8000');
    // The handler read 8000 owed; a bank transfer paid the bill before its debit; then the process died.
    expect(dataOf(await app.request('POST', '/api/sandbox/bank-transfers', { body: { reference: bill.paymentReference, amountCents: '8000' } }), 201)).toMatchObject({
      status: 'MATCHED',
    });
    expect((await invoice(enterprise, bill.id)).status).toBe('PAID');
    const paymentId = await stopAfterTheDebit(dataDir, enterprise, bill, '8000', 'pay-raced');

    app = await startTestApp({ DATA_DIR: dataDir });
    await app.eventCount(); // settles: every subscriber at the head of the log
    const paid = await invoice(enterprise, bill.id);
    expect(paid).toMatchObject({ status: 'PAID', outstandingCents: '0', paidCents: '8000' });
    expect(paid.payments).toEqual([
      expect.objectContaining({ method: 'BANK_TRANSFER', amountCents: '8000', appliedCents: '8000', overpaidCents: '0' }),
      expect.objectContaining({ paymentId, method: 'BALANCE', amountCents: '8000', appliedCents: '0', overpaidCents: '8000' }),
    ]);
    expect(await available(enterprise)).toBe('8000');
    expect(await balanceEvents(enterprise)).toEqual(['company_balance.topped_up', 'company_balance.invoice_paid', 'company_balance.invoice_overpayment_credited']);
    expectLedgerClean(dataDir);
  }, 60_000);
});
