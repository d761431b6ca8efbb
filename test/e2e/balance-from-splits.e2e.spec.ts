import { replayLedger, verifyLedger } from '../../src/ledger/application/ledger-verifier';
import { balanceOf, SESSIONS, sessionBody } from '../support/payout-embed-fixtures';
import { createdSplit, creatorRow, dataOf, issueApiKey, newIdempotencyKey, setupSplitWorld, SplitWorld, subVendorRow } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Split money and Payout Embed share the SME's company balance: the roster sum a funding credits is
 * owed to the contractors and never reservable; the released margin, less the instant fees the SME
 * covered, is (docs/money.md#what-a-company-can-spend).
 */
describe('company balance fed by Splits', () => {
  let app: TestApp;
  let world: SplitWorld;
  let payoutKey: string;

  const balance = async () => {
    await app.eventCount();
    return balanceOf(app, world.sme.sessionToken);
  };
  const reserve = (amountCents: string) => app.request('POST', SESSIONS, { token: payoutKey, body: sessionBody({ amountCents }) });
  const ledgerOk = async () => {
    const { postings, splits } = await replayLedger(app.platform.events);
    expect(verifyLedger(postings, splits).violations).toEqual([]);
  };

  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
    payoutKey = await issueApiKey(app, world.sme.sessionToken, ['payout:write'], 'payouts');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps owed roster money out of reach, makes the released margin net of covered fees reservable, to the cent', async () => {
    // Total 50000: an instant row of 40000 whose 600 fee the SME covers, a net-terms row of 5000, margin 5000.
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey(),
      totalAmountCents: '50000',
      roster: [creatorRow(world.creator, '40000', { earlyPayoutElected: true, businessCoversFee: true }), subVendorRow(world.plainVendor, '5000')],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);

    // Funded: 45000 credited, the instant row drew 40000; the net-terms row's 5000 is still owed.
    expect(await balance()).toEqual({ availableCents: '0', reservedCents: '0', owedToContractorsCents: '5000' });
    const short = await reserve('1');
    expect(short.status).toBe(422);
    expect(short.body.error.code).toBe('PAYOUT_INSUFFICIENT_BALANCE');

    // The margin is released: 600 repays the covered fee, 4400 reaches the balance and is reservable.
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/settle-margin`, { token: world.sme.sessionToken }), 200);
    expect(await balance()).toEqual({ availableCents: '4400', reservedCents: '0', owedToContractorsCents: '5000' });
    expect((await reserve('4401')).status).toBe(422);
    const session = dataOf(await reserve('4400'), 201);
    expect(await balance()).toEqual({ availableCents: '0', reservedCents: '4400', owedToContractorsCents: '5000' });

    // Net terms: the owed row transfers out of the same account (never negative); the unclaimed session
    // expired after its 7 days and its reservation came back.
    dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 31 * 86_400 } }), 200);
    expect(dataOf(await app.request('GET', `${SESSIONS}/${session.id}`, { token: payoutKey }), 200).status).toBe('expired');
    expect(await balance()).toEqual({ availableCents: '4400', reservedCents: '0', owedToContractorsCents: '0' });
    await ledgerOk();
  });
});
