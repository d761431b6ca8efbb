import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';
import {
  createdSplit,
  createSubVendor,
  creatorRow,
  dataOf,
  emailRow,
  PAYOUT_ID,
  setupSplitWorld,
  splitBody,
  SplitWorld,
  subVendorRow,
  uniqueEmail,
} from '../support/split-fixtures';

describe('Split money lifecycle', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const get = async (id: string) => dataOf(await app.request('GET', `/api/commerce/integration/splits/${id}`, { token: world.sme.apiKey }), 200);
  const row = (split: any, index: number) => split.distributions[index];

  it('funds after approval, pays instant rows at once and the rest at net terms, retries a failure, releases the margin and settles', async () => {
    const failingEmail = uniqueEmail('flaky').replace('@', '+fail-once@');
    // A roster names each contractor once (SPLIT_DUPLICATE_CONTRACTOR): the instant fee-covered row pays a second wallet vendor.
    const secondWallet = await createSubVendor(app, world.sme.apiKey, { email: uniqueEmail('wallet-two'), fullName: 'Wren Wallet', walletEmail: uniqueEmail('wallet-two-w') });
    const body = splitBody(world, {
      totalAmountCents: '25000',
      roster: [
        creatorRow(world.creator, '10000', { earlyPayoutElected: true, autoWithdrawElected: true }),
        subVendorRow(world.walletVendor, '5000', { autoWithdrawElected: true }),
        subVendorRow(world.plainVendor, '3000', { earlyPayoutElected: false, autoWithdrawElected: true }),
        emailRow(failingEmail, '2000'),
        subVendorRow(secondWallet, '1001', { earlyPayoutElected: true, businessCoversFee: true }),
      ],
    });
    const created = await createdSplit(app, world.sme.apiKey, body);
    expect(created).toMatchObject({ status: 'PENDING_APPROVAL', totalAmountCents: '25000', marginAmountCents: '3999', marginStatus: 'PENDING' });

    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: created.revision } }), 200);
    await advance(1);
    const funded = await get(created.id);
    expect(funded).toMatchObject({ status: 'SETTLING', feeBufferAmountCents: '15', marginStatus: 'HELD', marginReleasedAt: null });
    // 1001 at 150 bps is 15.015, rounded half up to 15; the SME pays it on top, the contractor gets 1001.
    expect(row(funded, 4)).toMatchObject({ status: 'COMPLETED', feeAmountCents: '15', netAmountCents: '1001', legBWithdrawalPayoutId: null });
    expect(funded.marginHoldStartedAt).toEqual(expect.any(String));
    expect(row(funded, 0)).toMatchObject({ status: 'COMPLETED', feeAmountCents: '150', netAmountCents: '9850', failureReason: null });
    expect(row(funded, 0).legBTransferPayoutId).toMatch(PAYOUT_ID);
    expect(row(funded, 0).legBWithdrawalPayoutId).toMatch(PAYOUT_ID);
    for (const i of [1, 2, 3]) expect(row(funded, i)).toMatchObject({ status: 'PENDING', legBTransferPayoutId: null, feeAmountCents: null, netAmountCents: null });

    // Net terms are 30 days from funding: the late rows transfer fee-free and the margin is released.
    await advance(29 * 86_400);
    expect((await get(created.id)).marginStatus).toBe('HELD');
    await advance(2 * 86_400);
    const settled = await get(created.id);
    expect(settled).toMatchObject({ status: 'SETTLED', marginStatus: 'RELEASED' });
    expect(settled.marginReleasedAt).toEqual(expect.any(String));
    expect(row(settled, 1)).toMatchObject({ status: 'COMPLETED', feeAmountCents: '0', netAmountCents: '5000' });
    expect(row(settled, 1).legBWithdrawalPayoutId).toMatch(PAYOUT_ID);
    expect(row(settled, 2)).toMatchObject({ status: 'COMPLETED', feeAmountCents: '0', netAmountCents: '3000', legBWithdrawalPayoutId: null });
    expect(row(settled, 3)).toMatchObject({ status: 'COMPLETED', feeAmountCents: '0', netAmountCents: '2000', failureReason: null });

    const history = dataOf(await app.request('GET', `/api/commerce/integration/splits/${created.id}/history`, { token: world.sme.apiKey }), 200);
    const types = history.map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['split.funded', 'split.leg_a.claimed', 'split.margin.held', 'split.roster_entry.failed', 'split.margin.settled', 'split.settled']),
    );
    expect(types.filter((t: string) => t === 'split.roster_entry.settled')).toHaveLength(5);
    expect(history.find((e: { type: string }) => e.type === 'split.leg_a.claimed').data.amountCents).toBe('21001');

    // The ledger, to the cent: funding (and the covered fee set aside from the margin), five transfers (the
    // covered fee paid with its transfer), two withdrawals to wallets, the margin release (issue 23).
    const ledger = dataOf(await app.request('GET', `/api/commerce/integration/splits/${created.id}/ledger`, { token: world.sme.apiKey }), 200);
    const sme = world.sme.companyId;
    const [creatorKey, walletKey, plainKey, flakyKey] = [world.creator.paymentProfileId, world.walletVendor.id, world.plainVendor.id, settled.distributions[3].subVendorId];
    const shape = (p: { kind: string; entries: unknown[] }) => ({ kind: p.kind, entries: p.entries });
    const line = (account: string, debit: string, credit: string) => ({ account, debit, credit });
    expect(ledger.map((p: { sequence: number }) => p.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(ledger.map(shape)).toEqual(
      expect.arrayContaining([
        {
          kind: 'funding',
          entries: [
            line(`enterprise_receivable:${world.enterprise.companyId}`, '25000', '0'),
            line(`company_balance:${sme}`, '0', '21001'),
            line(`sme_margin_hold:${sme}`, '0', '3999'),
          ],
        },
        { kind: 'sme_fee_cover_from_margin', entries: [line(`sme_margin_hold:${sme}`, '15', '0'), line(`sme_fee_reserve:${sme}`, '0', '15')] },
        {
          kind: 'row_transfer',
          entries: [
            line(`company_balance:${sme}`, '1001', '0'),
            line(`sme_fee_due:${sme}`, '15', '0'),
            line(`contractor_balance:${secondWallet.id}`, '0', '1001'),
            line('platform_fees', '0', '15'),
          ],
        },
        { kind: 'sme_fee_paid', entries: [line(`sme_fee_reserve:${sme}`, '15', '0'), line(`sme_fee_due:${sme}`, '0', '15')] },
        { kind: 'row_transfer', entries: [line(`company_balance:${sme}`, '10000', '0'), line(`contractor_balance:${creatorKey}`, '0', '9850'), line('platform_fees', '0', '150')] },
        { kind: 'withdrawal', entries: [line(`contractor_balance:${creatorKey}`, '9850', '0'), line(`contractor_wallet:${creatorKey}`, '0', '9850')] },
        { kind: 'row_transfer', entries: [line(`company_balance:${sme}`, '5000', '0'), line(`contractor_balance:${walletKey}`, '0', '5000')] },
        { kind: 'withdrawal', entries: [line(`contractor_balance:${walletKey}`, '5000', '0'), line(`contractor_wallet:${walletKey}`, '0', '5000')] },
        { kind: 'row_transfer', entries: [line(`company_balance:${sme}`, '3000', '0'), line(`contractor_balance:${plainKey}`, '0', '3000')] },
        { kind: 'row_transfer', entries: [line(`company_balance:${sme}`, '2000', '0'), line(`contractor_balance:${flakyKey}`, '0', '2000')] },
        { kind: 'margin_release', entries: [line(`sme_margin_hold:${sme}`, '3984', '0'), line(`company_balance:${sme}`, '0', '3984')] },
      ]),
    );
    expect(ledger[0].kind).toBe('funding');

    const verify = spawnSync(process.execPath, [join(__dirname, '../../dist/src/cli.js'), 'ledger:verify'], {
      env: { ...process.env, SANDBOX: 'true', DATA_DIR: app.platform.config.dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(verify.stdout).toContain('ledger OK');
    expect(verify.status).toBe(0);
  });

  it('charges the SME the fee on top for a businessCoversFee instant row and reserves it as the fee buffer', async () => {
    const created = await createdSplit(
      app,
      world.sme.apiKey,
      splitBody(world, { roster: [subVendorRow(world.walletVendor, '10000', { earlyPayoutElected: true, businessCoversFee: true })] }),
    );
    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: created.revision } }), 200);
    await advance(1);
    const split = await get(created.id);
    expect(split).toMatchObject({ status: 'SETTLED', feeBufferAmountCents: '150', marginStatus: 'NONE' });
    expect(row(split, 0)).toMatchObject({ status: 'COMPLETED', feeAmountCents: '150', netAmountCents: '10000' });
    const ledger = dataOf(await app.request('GET', `/api/commerce/integration/splits/${created.id}/ledger`, { token: world.sme.apiKey }), 200);
    // The SME covers the fee: the platform advances it (sme_fee_due) and, without a margin, the SME pays it at once out of
    // what it set aside from its balance (3984 released by the margin above) when it created the Split (issue 23).
    expect(ledger[2]).toMatchObject({
      kind: 'sme_fee_paid',
      entries: [
        { account: `sme_fee_reserve:${world.sme.companyId}`, debit: '150', credit: '0' },
        { account: `sme_fee_due:${world.sme.companyId}`, debit: '0', credit: '150' },
      ],
    });
    expect(ledger[1].entries).toEqual([
      { account: `company_balance:${world.sme.companyId}`, debit: '10000', credit: '0' },
      { account: `sme_fee_due:${world.sme.companyId}`, debit: '150', credit: '0' },
      { account: `contractor_balance:${world.walletVendor.id}`, debit: '0', credit: '10000' },
      { account: 'platform_fees', debit: '0', credit: '150' },
    ]);
  });

  it('pays a row out on demand with the fee, and settles the margin by the SME session only', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world, { totalAmountCents: '12000', roster: [subVendorRow(world.walletVendor, '10000')] }));
    const early = await app.request('POST', `/api/commerce/integration/splits/${created.id}/distributions/${row(created, 0).id}/payout`, { token: world.sme.apiKey });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('SPLIT_NOT_FUNDED');

    const byKey = await app.request('POST', `/api/commerce/splits/${created.id}/settle-margin`, { token: world.sme.apiKey });
    expect(byKey.status).toBe(403);
    const elected = dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/settle-margin`, { token: world.sme.sessionToken }), 200);
    expect(elected.marginStatus).toBe('PENDING');
    const twice = await app.request('POST', `/api/commerce/splits/${created.id}/settle-margin`, { token: world.sme.sessionToken });
    expect(twice.status).toBe(409);

    dataOf(await app.request('POST', `/api/commerce/splits/${created.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: created.revision } }), 200);
    await advance(1);
    const funded = await get(created.id);
    expect(funded).toMatchObject({ status: 'FUNDED', marginStatus: 'RELEASED' });

    const paid = dataOf(await app.request('POST', `/api/commerce/integration/splits/${created.id}/distributions/${row(created, 0).id}/payout`, { token: world.sme.apiKey }), 200);
    expect(row(paid, 0)).toMatchObject({ feeAmountCents: '150', netAmountCents: '9850' });
    await advance(1);
    expect(await get(created.id)).toMatchObject({ status: 'SETTLED' });
    const again = await app.request('POST', `/api/commerce/integration/splits/${created.id}/distributions/${row(created, 0).id}/payout`, { token: world.sme.apiKey });
    expect(again.status).toBe(409);
    const released = await app.request('POST', `/api/commerce/splits/${created.id}/settle-margin`, { token: world.sme.sessionToken });
    expect(released.status).toBe(409);
    expect(released.body.error.code).toBe('SPLIT_MARGIN_NOT_SETTLEABLE');
  });
});
