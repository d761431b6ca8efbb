import { replayLedger, verifyLedger } from '../../src/ledger/application/ledger-verifier';
import { SESSIONS, sessionBody, topUp } from '../support/payout-embed-fixtures';
import { createdSplit, createSplit, dataOf, issueApiKey, setupSplitWorld, splitBody, SplitWorld, subVendorRow } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 23 item 2: fees the SME covers (businessCoversFee) are drawn from its own money no later than the
 * row's transfer: the margin first, else what it set aside from its available balance when it elected
 * them (docs/money.md#fees-the-sme-covers). A balance that cannot cover them refuses the election with
 * 422 SME_FEE_NOT_COVERED and nothing is written or moved.
 */
describe('fees the SME covers are drawn from its own money (issue 23)', () => {
  let app: TestApp;
  let world: SplitWorld;
  let payoutKey: string;

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const balance = async () => {
    await app.eventCount();
    const rows = dataOf(await app.request('GET', '/api/commerce/balance', { token: world.sme.sessionToken }), 200);
    const { availableCents, reservedForFeesCents, owedToContractorsCents } = rows.find((r: { currency: string }) => r.currency === 'USD') ?? {};
    return { availableCents, reservedForFeesCents, owedToContractorsCents };
  };
  /** An account's balance (credit - debit) over the whole log, and ledger:verify's verdict. */
  const books = async () => {
    await app.eventCount();
    const { postings, splits } = await replayLedger(app.platform.events);
    const account = (name: string) =>
      postings
        .flatMap((p) => p.entries)
        .filter((e) => e.account === name)
        .reduce((sum, e) => sum + BigInt(e.credit) - BigInt(e.debit), 0n)
        .toString();
    return { account, report: verifyLedger(postings, splits) };
  };
  /** The enterprise approves the revision it reads. */
  const approve = async (id: string) => {
    const { revision } = dataOf(await app.request('GET', `/api/commerce/splits/${id}`, { token: world.enterprise.sessionToken }), 200);
    return dataOf(await app.request('POST', `/api/commerce/splits/${id}/approve`, { token: world.enterprise.sessionToken, body: { revision } }), 200);
  };
  const get = async (id: string) => dataOf(await app.request('GET', `/api/commerce/integration/splits/${id}`, { token: world.sme.apiKey }), 200);
  /** The issue's example: one row of 1000000, early payout, the SME covers the 15000 fee, no margin. */
  const coveredBody = () => splitBody(world, { roster: [subVendorRow(world.walletVendor, '1000000', { earlyPayoutElected: true, businessCoversFee: true })] });

  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app, { sme: 'Fee Payer Staffing', enterprise: 'Fee Corp' });
    payoutKey = await issueApiKey(app, world.sme.sessionToken, ['payout:write'], 'payouts');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses the election with 422 when the SME balance cannot cover the fee, writing and moving nothing', async () => {
    const before = await app.eventCount();
    const refused = await createSplit(app, world.sme.apiKey, coveredBody());
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'SME_FEE_NOT_COVERED',
      details: [expect.objectContaining({ field: 'businessCoversFee', currency: 'USD', availableCents: '0', requiredCents: '15000' })],
    });
    expect(await app.eventCount()).toBe(before);
    const listed = dataOf(await app.request('GET', '/api/commerce/integration/splits', { token: world.sme.apiKey }), 200);
    expect(listed).toEqual([]);
  });

  it('draws the fee from the SME balance: set aside at creation, paid with the transfer, nothing left due; ledger:verify clean', async () => {
    await topUp(app, world.sme.sessionToken, '15000');
    const created = await createdSplit(app, world.sme.apiKey, coveredBody());
    // Set aside at once: a Payout Embed session cannot spend it any more.
    expect(await balance()).toEqual({ availableCents: '0', reservedForFeesCents: '15000', owedToContractorsCents: '0' });
    const session = await app.request('POST', SESSIONS, { token: payoutKey, body: sessionBody({ amountCents: '1' }) });
    expect(session.status).toBe(422);
    expect(session.body.error.code).toBe('PAYOUT_INSUFFICIENT_BALANCE');

    await approve(created.id);
    await advance(1);
    const settled = await get(created.id);
    expect(settled).toMatchObject({ status: 'SETTLED', marginStatus: 'NONE', feeBufferAmountCents: '15000' });
    expect(settled.distributions[0]).toMatchObject({ status: 'COMPLETED', feeAmountCents: '15000', netAmountCents: '1000000' });

    const sme = world.sme.companyId;
    const { account, report } = await books();
    expect(account(`contractor_balance:${world.walletVendor.id}`)).toBe('1000000');
    expect(account('platform_fees')).toBe('15000');
    // The SME paid it: sme_fee_due is settled, nothing stays set aside, its 15000 top-up is spent.
    expect(account(`sme_fee_due:${sme}`)).toBe('0');
    expect(account(`sme_fee_reserve:${sme}`)).toBe('0');
    expect(account(`company_balance:${sme}`)).toBe('0');
    expect(report.violations).toEqual([]);
    expect(report.legacyFeesDue).toEqual([]);
    expect(await balance()).toEqual({ availableCents: '0', reservedForFeesCents: '0', owedToContractorsCents: '0' });

    const ledger = dataOf(await app.request('GET', `/api/commerce/integration/splits/${created.id}/ledger`, { token: world.sme.apiKey }), 200);
    expect(ledger.map((p: { kind: string }) => p.kind)).toEqual(['funding', 'row_transfer', 'sme_fee_paid']);
    expect(ledger[2].entries).toEqual([
      { account: `sme_fee_reserve:${sme}`, debit: '15000', credit: '0' },
      { account: `sme_fee_due:${sme}`, debit: '0', credit: '15000' },
    ]);
  });

  it('lets the margin pay first, and the balance only the rest', async () => {
    await topUp(app, world.sme.sessionToken, '5000');
    // Margin 10000 of a 1010000 total pays 10000 of the 15000 fee; 5000 comes from the balance.
    const created = await createdSplit(app, world.sme.apiKey, { ...coveredBody(), totalAmountCents: '1010000' });
    expect(await balance()).toEqual({ availableCents: '0', reservedForFeesCents: '5000', owedToContractorsCents: '0' });
    await approve(created.id);
    await advance(1);
    expect(await get(created.id)).toMatchObject({ status: 'SETTLED', marginStatus: 'HELD' });
    // At release nothing of the margin is left for the balance: it all went to the fee.
    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/settle-margin`, { token: world.sme.sessionToken }), 200);
    const { account, report } = await books();
    expect(account(`sme_fee_due:${world.sme.companyId}`)).toBe('0');
    expect(account(`sme_margin_hold:${world.sme.companyId}`)).toBe('0');
    expect(report.violations).toEqual([]);
    expect(await balance()).toEqual({ availableCents: '0', reservedForFeesCents: '0', owedToContractorsCents: '0' });
  });

  it('refuses a revision that elects a fee the balance cannot cover, and keeps the roster', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [subVendorRow(world.walletVendor, '1000000', { earlyPayoutElected: true })] }));
    const before = await app.eventCount();
    const refused = await app.request('PUT', `/api/commerce/integration/splits/${created.id}/roster`, {
      token: world.sme.apiKey,
      body: { roster: [subVendorRow(world.walletVendor, '1000000', { earlyPayoutElected: true, businessCoversFee: true })] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('SME_FEE_NOT_COVERED');
    expect(await app.eventCount()).toBe(before);
    expect((await get(created.id)).distributions[0].businessCoversFee).toBe(false);
  });

  it('keeps what a revision no longer needs set aside until the Split settles, then gives it back', async () => {
    await topUp(app, world.sme.sessionToken, '15000');
    const created = await createdSplit(app, world.sme.apiKey, coveredBody());
    dataOf(
      await app.request('PUT', `/api/commerce/integration/splits/${created.id}/roster`, {
        token: world.sme.apiKey,
        body: { roster: [subVendorRow(world.walletVendor, '1000000', { earlyPayoutElected: true })] },
      }),
      200,
    );
    expect(await balance()).toEqual({ availableCents: '0', reservedForFeesCents: '15000', owedToContractorsCents: '0' });
    await approve(created.id);
    await advance(1);
    expect(await get(created.id)).toMatchObject({ status: 'SETTLED' });
    expect(await balance()).toEqual({ availableCents: '15000', reservedForFeesCents: '0', owedToContractorsCents: '0' });
    // Spend it again so the next cases start from an empty balance.
    dataOf(await app.request('POST', SESSIONS, { token: payoutKey, body: sessionBody({ amountCents: '15000' }) }), 201);
    expect((await books()).report.violations).toEqual([]);
  });

  it('gives back what was set aside when the enterprise rejects the Split', async () => {
    await topUp(app, world.sme.sessionToken, '15000');
    const created = await createdSplit(app, world.sme.apiKey, coveredBody());
    expect(await balance()).toEqual({ availableCents: '0', reservedForFeesCents: '15000', owedToContractorsCents: '0' });
    dataOf(
      await app.request('POST', `/api/commerce/splits/${created.id}/reject`, { token: world.enterprise.sessionToken, body: { reason: 'no', revision: created.revision } }),
      200,
    );
    expect(await balance()).toEqual({ availableCents: '15000', reservedForFeesCents: '0', owedToContractorsCents: '0' });
    expect((await books()).report.violations).toEqual([]);
  });

  it('refuses a pay-out-now whose covered fee the balance cannot cover, starting nothing; pays it once the balance can', async () => {
    // The available 15000 is spent elsewhere first, so the on-demand fee (15000) finds nothing.
    const spend = dataOf(await app.request('POST', SESSIONS, { token: payoutKey, body: sessionBody({ amountCents: '15000' }) }), 201);
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [subVendorRow(world.walletVendor, '1000000', { businessCoversFee: true })] }));
    await approve(created.id);
    await advance(1);
    expect(await get(created.id)).toMatchObject({ status: 'FUNDED' });
    const path = `/api/commerce/integration/splits/${created.id}/distributions/${created.distributions[0].id}/payout`;
    const before = await app.eventCount();
    const refused = await app.request('POST', path, { token: world.sme.apiKey });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('SME_FEE_NOT_COVERED');
    expect(await app.eventCount()).toBe(before);
    expect((await get(created.id)).distributions[0]).toMatchObject({ status: 'PENDING', legBTransferPayoutId: null });

    dataOf(await app.request('POST', `${SESSIONS}/${spend.id}/cancel`, { token: payoutKey }), 200);
    const paid = dataOf(await app.request('POST', path, { token: world.sme.apiKey }), 200);
    expect(paid.distributions[0]).toMatchObject({ feeAmountCents: '15000', netAmountCents: '1000000' });
    await advance(1);
    expect(await get(created.id)).toMatchObject({ status: 'SETTLED' });
    const { account, report } = await books();
    expect(account(`sme_fee_due:${world.sme.companyId}`)).toBe('0');
    expect(report.violations).toEqual([]);
    expect(await balance()).toEqual({ availableCents: '0', reservedForFeesCents: '0', owedToContractorsCents: '0' });
  });

  it('settles a Split created before issue 23 under the old rule: it folds, projects and verifies, its open fee reported', async () => {
    // As an earlier version wrote it: no smeCoveredFeesDrawn, a covered early row, no margin.
    const splitId = `spl_legacy${Math.random().toString(36).slice(2, 10)}`;
    const now = app.platform.clock.now().toISOString();
    await app.platform.aggregates.append(
      `split-${splitId}`,
      [
        {
          type: 'split.created',
          data: {
            splitId,
            smeCompanyId: world.sme.companyId,
            smeCompanyName: 'Fee Payer Staffing',
            enterpriseCompanyId: world.enterprise.companyId,
            enterpriseCompanyName: 'Fee Corp',
            enterpriseNetTermsDays: 30,
            apContactBusinessProfileId: world.enterprise.apContactId,
            clientIdempotencyKey: splitId,
            legAPayoutId: `po_${splitId}`,
            currency: 'USD',
            totalAmountCents: '10000',
            marginAmountCents: '0',
            enterpriseCoversFee: false,
            enterpriseFeeAmountCents: '0',
            distributions: [
              {
                id: `dst_${splitId}`,
                contractorPaymentProfileId: null,
                subVendorId: world.walletVendor.id,
                contractorDisplayName: world.walletVendor.fullName,
                creatorProfileId: null,
                walletEmail: world.walletVendor.walletEmail,
                contractorEmail: world.walletVendor.email,
                amountCents: '10000',
                earlyPayoutElected: true,
                autoWithdrawElected: false,
                businessCoversFee: true,
              },
            ],
            createdBy: 'test',
            createdAt: now,
          },
        },
      ],
      'no_stream',
      { actor: 'test', correlationId: 'legacy' },
    );
    const before = await balance();
    await approve(splitId);
    await advance(1);
    expect(await get(splitId)).toMatchObject({ status: 'SETTLED', marginStatus: 'NONE' });
    expect(await balance()).toEqual(before);
    const { report } = await books();
    expect(report.violations).toEqual([]);
    expect(report.legacyFeesDue).toEqual([{ splitId, dueCents: '150' }]);
  });

  it('answers a retry of a Split it already created as a replay, setting nothing aside again, even once the balance could not cover it', async () => {
    await topUp(app, world.sme.sessionToken, '15000');
    const body = coveredBody();
    const created = await createdSplit(app, world.sme.apiKey, body);
    dataOf(
      await app.request('POST', `/api/commerce/splits/${created.id}/reject`, { token: world.enterprise.sessionToken, body: { reason: 'no', revision: created.revision } }),
      200,
    );
    const given = await balance();
    const before = await app.eventCount();
    const retried = await createSplit(app, world.sme.apiKey, body);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.data).toMatchObject({ id: created.id, status: 'REJECTED' });
    expect(await balance()).toEqual(given);
    expect(await app.eventCount()).toBe(before);

    // Spend what was given back: the same create would now be refused (SME_FEE_NOT_COVERED), yet it is the one that was made.
    const session = await app.request('POST', SESSIONS, { token: payoutKey, body: sessionBody({ amountCents: given.availableCents }) });
    expect(session.status).toBe(201);
    const spent = await balance();
    expect(spent.availableCents).toBe('0');
    const afterSpend = await app.eventCount();
    const again = await createSplit(app, world.sme.apiKey, body);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(created.id);
    expect(await balance()).toEqual(spent);
    expect(await app.eventCount()).toBe(afterSpend);
  });
});
