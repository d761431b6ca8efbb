import { spawnSync } from 'node:child_process';
import { COLLECTIONS_MERCHANT } from '../../src/collection';
import { replayLedger } from '../../src/ledger';
import { isCheckoutPosting } from '../../src/ledger/domain/posting';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';
import { createCompany, createdSplit, createEnterprise, dataOf, Enterprise, setupSplitWorld, splitBody, SplitWorld, subVendorRow } from '../support/split-fixtures';
import { jsonOf, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { CARDS, form } from '../browser/checkout-fixtures';

/**
 * Issue 27: the enterprise pays its bill. Every test runs over HTTP on the sandbox clock and ends with
 * `ledger:verify` clean (run against the built CLI: `npm run build` first).
 */
describe('Split collection: invoices, payments, overdue', () => {
  let app: TestApp;
  let world: SplitWorld;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const DAY = 86_400;
  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const outbox = async () => dataOf(await app.request('GET', '/api/sandbox/outbox'), 200) as { id: string; to: string; subject: string; body: string; link: string }[];
  const invoice = async (enterprise: Enterprise, id: string) => dataOf(await app.request('GET', `/api/commerce/invoices/${id}`, { token: enterprise.sessionToken }), 200);
  const payFromBalance = (enterprise: Enterprise, id: string, amountCents: string, idempotencyKey: string) =>
    app.request('POST', `/api/commerce/invoices/${id}/payments`, { token: enterprise.sessionToken, body: { amountCents, idempotencyKey } });
  const transfer = async (reference: string, amountCents: string) => dataOf(await app.request('POST', '/api/sandbox/bank-transfers', { body: { reference, amountCents } }), 201);
  const available = async (enterprise: Enterprise) =>
    (dataOf(await app.request('GET', '/api/commerce/balance', { token: enterprise.sessionToken }), 200) as { currency: string; availableCents: string }[]).find(
      (b) => b.currency === 'USD',
    )?.availableCents ?? '0';
  const splitOf = async (id: string) => dataOf(await app.request('GET', `/api/commerce/integration/splits/${id}`, { token: world.sme.apiKey }), 200);
  const ledger = async (splitId: string) => dataOf(await app.request('GET', `/api/commerce/integration/splits/${splitId}/ledger`, { token: world.sme.apiKey }), 200);

  async function allEvents() {
    const events = [];
    for (let after: number | undefined; ;) {
      const batch = await app.platform.events.readAll({ after, maxCount: 1000 });
      if (batch.length === 0) return events;
      events.push(...batch);
      after = batch[batch.length - 1]!.position;
    }
  }

  function expectLedgerClean(): void {
    const verify = spawnSync(process.execPath, [join(__dirname, '../../dist/src/cli.js'), 'ledger:verify'], {
      env: { ...process.env, SANDBOX: 'true', DATA_DIR: app.platform.config.dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(verify.stdout).toContain('ledger OK');
    expect(verify.status).toBe(0);
  }

  /** A funded Split billed to `enterprise` (net terms as set), and its invoice as the enterprise reads it. */
  async function fundedInvoice(enterprise: Enterprise, totalAmountCents = '10000'): Promise<{ splitId: string; invoice: any }> {
    const created = await createdSplit(app, world.sme.apiKey, {
      ...splitBody({ ...world, enterprise }, { totalAmountCents, roster: [subVendorRow(world.plainVendor, totalAmountCents)] }),
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: enterprise.sessionToken, body: { revision: created.revision } }), 200);
    await advance(1);
    const split = await splitOf(created.id);
    expect(split).toMatchObject({ status: 'FUNDED', collectionStatus: 'OPEN', invoiceId: expect.stringMatching(/^inv_[0-9a-z]{26}$/) });
    return { splitId: created.id, invoice: await invoice(enterprise, split.invoiceId) };
  }

  async function newEnterprise(name: string, netTermsDays = 30): Promise<Enterprise> {
    const enterprise = await createEnterprise(app, name);
    dataOf(await app.request('PATCH', '/api/commerce/company', { token: enterprise.sessionToken, body: { netTermsDays } }), 200);
    return enterprise;
  }

  it('bills the enterprise at funding, mails its AP contact, and is paid in full from its balance', async () => {
    const enterprise = await newEnterprise('Initech');
    const before = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    const { splitId, invoice: bill } = await fundedInvoice(enterprise, '10000');
    expect(bill).toMatchObject({
      splitId,
      enterpriseCompanyId: enterprise.companyId,
      amountCents: '10000',
      outstandingCents: '10000',
      status: 'OPEN',
      currency: 'USD',
      payments: [],
    });
    expect(bill.paymentReference).toMatch(/^PS-[0-9A-Z]{12}$/);
    expect(Date.parse(bill.dueAt) - Date.parse(bill.issuedAt)).toBe(30 * DAY * 1000);
    expect(Date.parse(bill.issuedAt)).toBeGreaterThanOrEqual(Date.parse(before));
    const listed = dataOf(await app.request('GET', '/api/commerce/invoices?status=OPEN', { token: enterprise.sessionToken }), 200);
    expect(listed.map((i: { id: string }) => i.id)).toEqual([bill.id]);
    expect(dataOf(await app.request('GET', '/api/commerce/invoices?status=PAID', { token: enterprise.sessionToken }), 200)).toEqual([]);
    // Nobody else reads it: not the other enterprise of the world, not a stranger.
    expect((await app.request('GET', `/api/commerce/invoices/${bill.id}`, { token: world.enterprise.sessionToken })).status).toBe(404);
    const mail = (await outbox()).find((m) => m.id === `mail_${bill.id}_issued`)!;
    expect(mail.subject).toBe(`Invoice for $100.00, due ${bill.dueAt.slice(0, 10)}`);
    expect(mail.body).toContain(bill.paymentReference);
    expect(mail.link).toBe(bill.payUrl);

    // Short of money: 422 and nothing taken.
    const short = await payFromBalance(enterprise, bill.id, '10000', 'pay-1');
    expect([short.status, short.body.error.code]).toEqual([422, 'PAYOUT_INSUFFICIENT_BALANCE']);
    dataOf(await app.request('POST', '/api/sandbox/balance/top-up', { token: enterprise.sessionToken, body: { currency: 'USD', amountCents: '15000' } }), 201);
    const tooMuch = await payFromBalance(enterprise, bill.id, '10001', 'pay-1');
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([422, 'INVOICE_PAYMENT_EXCEEDS_OUTSTANDING']);

    const paid = dataOf(await payFromBalance(enterprise, bill.id, '10000', 'pay-1'), 200);
    expect(paid).toMatchObject({ status: 'PAID', outstandingCents: '0', paidCents: '10000', paidAt: expect.any(String) });
    expect(paid.payments).toEqual([expect.objectContaining({ method: 'BALANCE', amountCents: '10000', appliedCents: '10000', overpaidCents: '0' })]);
    // The same key again takes nothing twice; another amount with it is refused.
    expect(dataOf(await payFromBalance(enterprise, bill.id, '10000', 'pay-1'), 200).payments).toHaveLength(1);
    expect((await payFromBalance(enterprise, bill.id, '5000', 'pay-1')).body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await payFromBalance(enterprise, bill.id, '1', 'pay-2')).body.error.code).toBe('INVOICE_ALREADY_PAID');
    expect(await available(enterprise)).toBe('5000');
    expect((await splitOf(splitId)).collectionStatus).toBe('PAID');
    const postings = await ledger(splitId);
    expect(postings.filter((p: { kind: string }) => p.kind === 'collection').map((p: { entries: unknown }) => p.entries)).toEqual([
      [
        { account: `company_balance:${enterprise.companyId}`, debit: '10000', credit: '0' },
        { account: `enterprise_receivable:${enterprise.companyId}`, debit: '0', credit: '10000' },
      ],
    ]);
    expectLedgerClean();
  });

  it('is paid in two parts: by card on the hosted Checkout page, then by a bank transfer quoting its reference', async () => {
    const enterprise = await newEnterprise('Hooli');
    const { splitId, invoice: bill } = await fundedInvoice(enterprise, '8000');
    const tooMuch = await app.request('POST', `/api/commerce/invoices/${bill.id}/card-payments`, { token: enterprise.sessionToken, body: { amountCents: '8001' } });
    expect(tooMuch.body.error.code).toBe('INVOICE_PAYMENT_EXCEEDS_OUTSTANDING');
    const started = dataOf(await app.request('POST', `/api/commerce/invoices/${bill.id}/card-payments`, { token: enterprise.sessionToken, body: { amountCents: '3000' } }), 200);
    expect(started).toMatchObject({ invoiceId: bill.id, amountCents: '3000', orderId: expect.stringMatching(/^ord_/) });
    const url = new URL(started.redirectUrl);
    const paidPage = await form(app, url.pathname, { t: url.searchParams.get('t')!, number: CARDS.ok, expMonth: '12', expYear: '2040', cvc: '123' });
    expect(paidPage.status).toBeLessThan(400);
    await advance(1);
    const first = await invoice(enterprise, bill.id);
    expect(first).toMatchObject({ status: 'PARTIALLY_PAID', outstandingCents: '5000' });
    expect(first.payments).toEqual([expect.objectContaining({ paymentId: started.orderId, method: 'CARD', amountCents: '3000' })]);
    expect((await splitOf(splitId)).collectionStatus).toBe('PARTIALLY_PAID');
    // Paid to the platform itself: no "merchant payout" of the order to the collections account was started.
    const payouts = (await allEvents()).filter((e) => e.type.startsWith('payout.') && (e.data as { orderId?: string }).orderId === started.orderId);
    expect(payouts).toEqual([]);
    const received = await transfer(bill.paymentReference.toLowerCase(), '5000');
    expect(received).toMatchObject({ status: 'MATCHED', invoiceId: bill.id, amountCents: '5000', parkedReason: null });
    const paid = await invoice(enterprise, bill.id);
    expect(paid).toMatchObject({ status: 'PAID', outstandingCents: '0' });
    expect(paid.payments.map((p: { method: string; amountCents: string }) => [p.method, p.amountCents])).toEqual([
      ['CARD', '3000'],
      ['BANK_TRANSFER', '5000'],
    ]);
    expect((await splitOf(splitId)).collectionStatus).toBe('PAID');
    const collections = (await ledger(splitId)).filter((p: { kind: string }) => p.kind === 'collection').map((p: { entries: unknown }) => p.entries);
    expect(collections).toEqual([
      [
        { account: 'platform_cash', debit: '3000', credit: '0' },
        { account: `enterprise_receivable:${enterprise.companyId}`, debit: '0', credit: '3000' },
      ],
      [
        { account: 'transfers_unapplied', debit: '5000', credit: '0' },
        { account: `enterprise_receivable:${enterprise.companyId}`, debit: '0', credit: '5000' },
      ],
    ]);
    // The card's money is on the books once, as platform_cash: the Checkout order that took it books nothing of its own.
    const { postings } = await replayLedger(app.platform.events);
    expect(postings.filter((posting) => isCheckoutPosting(posting) && posting.companyId === COLLECTIONS_MERCHANT)).toEqual([]);
    expectLedgerClean();
  });

  it("credits an overpayment by bank transfer to the enterprise's balance", async () => {
    const enterprise = await newEnterprise('Vandelay');
    const { invoice: bill } = await fundedInvoice(enterprise, '4000');
    expect(await available(enterprise)).toBe('0');
    expect(await transfer(bill.paymentReference, '4500')).toMatchObject({ status: 'MATCHED' });
    const paid = await invoice(enterprise, bill.id);
    expect(paid).toMatchObject({ status: 'PAID', outstandingCents: '0' });
    expect(paid.payments).toEqual([expect.objectContaining({ method: 'BANK_TRANSFER', amountCents: '4500', appliedCents: '4000', overpaidCents: '500' })]);
    await advance(1);
    expect(await available(enterprise)).toBe('500');
    expectLedgerClean();
  });

  it('parks a transfer whose reference names no invoice, for review, never lost', async () => {
    const parked = await transfer('PS-NOSUCHBILL00', '1234');
    expect(parked).toMatchObject({ status: 'PARKED', invoiceId: null, parkedReason: 'unknown reference', amountCents: '1234' });
    const list = dataOf(await app.request('GET', '/api/sandbox/bank-transfers?status=PARKED'), 200);
    expect(list.map((t: { id: string }) => t.id)).toContain(parked.id);
    expectLedgerClean();
  });

  it('resolves a parked transfer: the enterprise that sent it applies it to its bill, or the back office returns it', async () => {
    const enterprise = await newEnterprise('Soylent');
    const { splitId, invoice: bill } = await fundedInvoice(enterprise, '5000');
    // It typed its own reference instead of the bill's: parked.
    const parked = await transfer('SOYLENT MARCH', '5200');
    expect(parked).toMatchObject({ status: 'PARKED', resolvedAt: null });
    const claim = (body: object, token = enterprise.sessionToken, key = `claim-${JSON.stringify(body)}`) =>
      app.request('POST', `/api/commerce/invoices/${bill.id}/parked-transfers`, { token, body, headers: { 'idempotency-key': key } });
    // The proof is the reference and amount as sent: anything else is 404, as for an unknown transfer.
    for (const wrong of [
      { transferId: parked.id, reference: 'SOYLENT MARCH', amountCents: '5000' },
      { transferId: parked.id, reference: 'SOYLENT APRIL', amountCents: '5200' },
      { transferId: 'btr_nope', reference: 'SOYLENT MARCH', amountCents: '5200' },
    ]) {
      const refused = await claim(wrong);
      expect([refused.status, refused.body.error.code]).toEqual([404, 'BANK_TRANSFER_NOT_FOUND']);
    }
    // Another company cannot claim it for a bill that is not its own.
    expect((await claim({ transferId: parked.id, reference: 'SOYLENT MARCH', amountCents: '5200' }, world.enterprise.sessionToken)).status).toBe(404);
    const body = { transferId: parked.id, reference: 'soylent  march', amountCents: '5200' };
    const paid = dataOf(await claim(body), 200);
    expect(paid).toMatchObject({ status: 'PAID', outstandingCents: '0' });
    expect(paid.payments).toEqual([expect.objectContaining({ paymentId: parked.id, method: 'BANK_TRANSFER', amountCents: '5200', appliedCents: '5000', overpaidCents: '200' })]);
    // A retry answers the same; the transfer is APPLIED, no longer parked, and cannot be returned.
    const again = await claim(body);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(dataOf(await claim(body, enterprise.sessionToken, 'claim-other-key'), 200).payments).toHaveLength(1);
    const transfers = dataOf(await app.request('GET', '/api/sandbox/bank-transfers'), 200);
    expect(transfers.find((t: { id: string }) => t.id === parked.id)).toMatchObject({ status: 'APPLIED', invoiceId: bill.id, resolvedAt: expect.any(String) });
    expect(dataOf(await app.request('GET', '/api/sandbox/bank-transfers?status=PARKED'), 200).map((t: { id: string }) => t.id)).not.toContain(parked.id);
    const notParked = await app.request('POST', `/api/sandbox/bank-transfers/${parked.id}/return`);
    expect([notParked.status, notParked.body.error.code]).toEqual([409, 'BANK_TRANSFER_NOT_PARKED']);
    await advance(1);
    expect(await available(enterprise)).toBe('200');
    const collections = (await ledger(splitId)).filter((p: { kind: string }) => p.kind === 'collection').map((p: { entries: unknown }) => p.entries);
    expect(collections).toEqual([
      [
        { account: 'transfers_unapplied', debit: '5200', credit: '0' },
        { account: `enterprise_receivable:${enterprise.companyId}`, debit: '0', credit: '5000' },
        { account: `company_balance:${enterprise.companyId}`, debit: '0', credit: '200' },
      ],
    ]);

    // Nobody claims the other one: the back office sends it back, once.
    const unclaimed = await transfer('WHO KNOWS', '777');
    const returned = dataOf(await app.request('POST', `/api/sandbox/bank-transfers/${unclaimed.id}/return`), 200);
    expect(returned).toMatchObject({ id: unclaimed.id, status: 'RETURNED', invoiceId: null, resolvedAt: expect.any(String) });
    expect(dataOf(await app.request('POST', `/api/sandbox/bank-transfers/${unclaimed.id}/return`), 200)).toEqual(returned);
    const late = await claim({ transferId: unclaimed.id, reference: 'WHO KNOWS', amountCents: '777' });
    expect([late.status, late.body.error.code]).toEqual([409, 'BANK_TRANSFER_NOT_PARKED']);
    const { postings } = await replayLedger(app.platform.events);
    expect(postings.filter((p) => 'transferId' in p && p.transferId === unclaimed.id).map((p) => [p.kind, p.entries])).toEqual([
      [
        'transfer_parked',
        [
          { account: 'platform_cash', debit: '777', credit: '0' },
          { account: 'parked_transfers', debit: '0', credit: '777' },
        ],
      ],
      [
        'transfer_resolved',
        [
          { account: 'parked_transfers', debit: '777', credit: '0' },
          { account: 'platform_cash', debit: '0', credit: '777' },
        ],
      ],
    ]);
    expectLedgerClean();
  });

  it('goes OVERDUE at its due date with three reminders and two webhooks to each side; approval refused while overdue, allowed after payment', async () => {
    const enterprise = await newEnterprise('Massive Dynamic', 10);
    for (const company of [world.sme, enterprise]) {
      dataOf(
        await app.request('POST', '/api/commerce/webhooks/endpoints', {
          token: company.sessionToken,
          body: { url: `${receiver.url}/${company.companyId}`, eventTypes: ['split.invoice.paid', 'split.invoice.overdue'] },
        }),
        201,
      );
    }
    const { splitId, invoice: bill } = await fundedInvoice(enterprise, '6000');
    const reminders = async () => (await outbox()).filter((m) => m.id.startsWith(`mail_${bill.id}_`) && !m.id.endsWith('_issued')).map((m) => m.id.replace(`mail_${bill.id}_`, ''));
    await advance(7 * DAY + 60);
    expect(await reminders()).toEqual(['before_due']);
    expect((await invoice(enterprise, bill.id)).status).toBe('OPEN');
    await advance(3 * DAY);
    expect((await invoice(enterprise, bill.id)).status).toBe('OVERDUE');
    expect((await splitOf(splitId)).collectionStatus).toBe('OVERDUE');
    await advance(7 * DAY);
    expect((await reminders()).sort()).toEqual(['after_due', 'before_due', 'due']);
    const overdueHooks = await receiver.waitFor((requests) => requests.filter((r) => jsonOf(r).type === 'split.invoice.overdue').length >= 2, 10_000, 'two overdue webhooks');
    expect(
      overdueHooks
        .filter((r) => jsonOf(r).type === 'split.invoice.overdue')
        .map((r) => r.path)
        .sort(),
    ).toEqual([`/${enterprise.companyId}`, `/${world.sme.companyId}`].sort());
    expect(jsonOf(overdueHooks.find((r) => jsonOf(r).type === 'split.invoice.overdue')!).data).toEqual({
      invoiceId: bill.id,
      splitId,
      outstandingCents: '6000',
      currency: 'USD',
      dueAt: bill.dueAt,
    });

    // Overdue 7 days: under the 30-day limit, the enterprise still approves.
    const pending = await createdSplit(app, world.sme.apiKey, splitBody({ ...world, enterprise }, { totalAmountCents: '1000', roster: [subVendorRow(world.plainVendor, '1000')] }));
    expect(pending.approvalBlockedReason).toBeNull();
    // 31 days overdue: approvals are refused (422) and auto-accept is suspended; the SME sees why.
    await advance(24 * DAY);
    const refused = await app.request('POST', `/api/commerce/splits/${pending.id}/approve`, { token: enterprise.sessionToken, body: { revision: pending.revision } });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'ENTERPRISE_INVOICE_OVERDUE']);
    expect((await splitOf(pending.id)).approvalBlockedReason).toBe('ENTERPRISE_INVOICE_OVERDUE');
    dataOf(
      await app.request('PUT', `/api/commerce/split-settings/sme/${world.sme.companyId}`, { token: enterprise.sessionToken, body: { autoAccept: true, coverFees: false } }),
      200,
    );
    const waiting = await createdSplit(app, world.sme.apiKey, splitBody({ ...world, enterprise }, { totalAmountCents: '1100', roster: [subVendorRow(world.plainVendor, '1100')] }));
    expect(waiting).toMatchObject({ status: 'PENDING_APPROVAL', approvalBlockedReason: 'ENTERPRISE_INVOICE_OVERDUE' });

    // It pays: approval works again, auto-accept too.
    expect(await transfer(bill.paymentReference, '6000')).toMatchObject({ status: 'MATCHED' });
    expect((await invoice(enterprise, bill.id)).status).toBe('PAID');
    const paidHooks = await receiver.waitFor((requests) => requests.filter((r) => jsonOf(r).type === 'split.invoice.paid').length >= 2, 10_000, 'two paid webhooks');
    expect(
      paidHooks
        .filter((r) => jsonOf(r).type === 'split.invoice.paid')
        .map((r) => r.path)
        .sort(),
    ).toEqual([`/${enterprise.companyId}`, `/${world.sme.companyId}`].sort());
    expect((await splitOf(pending.id)).approvalBlockedReason).toBeNull();
    dataOf(await app.request('POST', `/api/commerce/splits/${pending.id}/approve`, { token: enterprise.sessionToken, body: { revision: pending.revision } }), 200);
    const auto = await createdSplit(app, world.sme.apiKey, splitBody({ ...world, enterprise }, { totalAmountCents: '1200', roster: [subVendorRow(world.plainVendor, '1200')] }));
    expect(auto.status).toBe('APPROVED');
    await advance(1);
    expectLedgerClean();
  });

  it("lists the SME's Splits and the enterprise's bills by collection status across every page, as their unpaid filters do", async () => {
    const other = await setupSplitWorld(app, { sme: 'Pied Piper', enterprise: 'Aviato' });
    const funded: { id: string; invoiceId: string }[] = [];
    for (const total of ['1000', '2000', '3000', '4000']) {
      const created = await createdSplit(app, other.sme.apiKey, splitBody(other, { totalAmountCents: total, roster: [subVendorRow(other.plainVendor, total)] }));
      dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: other.enterprise.sessionToken, body: { revision: created.revision } }), 200);
      await advance(1);
      const split = dataOf(await app.request('GET', `/api/commerce/integration/splits/${created.id}`, { token: other.sme.apiKey }), 200);
      funded.push({ id: created.id, invoiceId: split.invoiceId });
    }
    // Not funded, so not billed: never unpaid.
    await createdSplit(app, other.sme.apiKey, splitBody(other, { totalAmountCents: '500', roster: [subVendorRow(other.plainVendor, '500')] }));
    const second = await invoice(other.enterprise, funded[1]!.invoiceId);
    expect(await transfer(second.paymentReference, second.amountCents)).toMatchObject({ status: 'MATCHED' });
    const third = await invoice(other.enterprise, funded[2]!.invoiceId);
    expect(await transfer(third.paymentReference, '100')).toMatchObject({ status: 'MATCHED' });

    const list = async (query: string) => {
      const response = await app.request('GET', `/api/commerce/splits/outgoing?${query}`, { token: other.sme.sessionToken });
      expect(response.status).toBe(200);
      return { ids: response.body.data.map((s: { id: string }) => s.id), meta: response.body.meta };
    };
    const unpaid = 'collectionStatus=OPEN,PARTIALLY_PAID,OVERDUE';
    // Newest first, two per page: the 4th and 3rd (PARTIALLY_PAID), then the 1st; the paid 2nd and the unbilled one never.
    expect(await list(`${unpaid}&limit=2&page=1`)).toEqual({ ids: [funded[3]!.id, funded[2]!.id], meta: { page: 1, limit: 2, total: 3, totalPages: 2 } });
    expect(await list(`${unpaid}&limit=2&page=2`)).toEqual({ ids: [funded[0]!.id], meta: { page: 2, limit: 2, total: 3, totalPages: 2 } });
    expect((await list('collectionStatus=PAID')).ids).toEqual([funded[1]!.id]);
    expect((await list('collectionStatus=PARTIALLY_PAID&status=FUNDED')).ids).toEqual([funded[2]!.id]);
    // The enterprise's incoming list takes the same filter.
    const incoming = await app.request('GET', `/api/commerce/splits/incoming?${unpaid}`, { token: other.enterprise.sessionToken });
    expect(incoming.body.data.map((s: { id: string }) => s.id)).toEqual([funded[3]!.id, funded[2]!.id, funded[0]!.id]);
    const bad = await app.request('GET', '/api/commerce/splits/outgoing?collectionStatus=UNPAID', { token: other.sme.sessionToken });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);

    // The enterprise's bills, soonest due first (funded a second apart, so in the order above), paged like any list.
    const bills = async (query: string) => {
      const response = await app.request('GET', `/api/commerce/invoices?${query}`, { token: other.enterprise.sessionToken });
      expect(response.status).toBe(200);
      return { ids: response.body.data.map((bill: { id: string }) => bill.id), meta: response.body.meta };
    };
    const billIds = funded.map((split) => split.invoiceId);
    expect(await bills('')).toEqual({ ids: billIds, meta: { page: 1, limit: 500, total: 4, totalPages: 1 } });
    expect(await bills('limit=2&page=2')).toEqual({ ids: [billIds[2], billIds[3]], meta: { page: 2, limit: 2, total: 4, totalPages: 2 } });
    expect(await bills('status=OPEN,PARTIALLY_PAID&limit=2')).toEqual({ ids: [billIds[0], billIds[2]], meta: { page: 1, limit: 2, total: 3, totalPages: 2 } });
    expect(await bills('status=OPEN,PARTIALLY_PAID&limit=2&page=2')).toEqual({ ids: [billIds[3]], meta: { page: 2, limit: 2, total: 3, totalPages: 2 } });
    expect((await bills('status=PAID')).ids).toEqual([billIds[1]]);
    for (const query of ['status=UNPAID', 'status=OPEN,', 'limit=501', 'limit=0', 'page=0']) {
      const refused = await app.request('GET', `/api/commerce/invoices?${query}`, { token: other.enterprise.sessionToken });
      expect([query, refused.status, refused.body.error.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
  });

  it('keeps a company that is no party out of every invoice route', async () => {
    const stranger = await createCompany(app, 'Stranger');
    expect(dataOf(await app.request('GET', '/api/commerce/invoices', { token: stranger.sessionToken }), 200)).toEqual([]);
    expect((await app.request('POST', '/api/commerce/invoices/inv_nope/payments', { token: stranger.sessionToken, body: { amountCents: '1', idempotencyKey: 'k' } })).status).toBe(
      404,
    );
  });
});
