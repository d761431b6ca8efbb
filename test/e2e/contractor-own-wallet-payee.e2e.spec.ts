import { browser, DASHBOARD_ENV, sessionCookie } from '../support/dashboard-fixtures';
import {
  createCreator,
  createdSplit,
  creatorRow,
  createSubVendor,
  dataOf,
  listSubVendors,
  outbox,
  setupSplitWorld,
  splitBody,
  splitEvents,
  SplitWorld,
  subVendorRow,
  uniqueEmail,
} from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 29 defect 4 over HTTP: a SubVendor row is paid to the wallet its contractor added and verified itself,
 * ahead of the one its SME supplied, even when the contractor verified it after the Split was created
 * (docs/decisions.md, "The contractor's own wallet pays its SubVendor rows").
 */
describe("a SubVendor row pays the contractor's own verified wallet (issue 29)", () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp(DASHBOARD_ENV);
    world = await setupSplitWorld(app, { sme: 'Own Wallet Staffing', enterprise: 'Own Wallet Globex' });
  });
  afterAll(async () => {
    await app.close();
  });
  const advance = async (seconds: number) => dataOf(await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds } }), 200);
  const codeFor = async (email: string) => /\b(\d{6})\b/.exec((await outbox(app)).filter((m) => m.to === email).pop()!.body)![1]!;

  it("pays a row out instantly to the wallet the contractor verified after the Split was created, not the SME's", async () => {
    const kim = uniqueEmail('kim');
    const smeWallet = uniqueEmail('kim-sme-wallet');
    const vendor = await createSubVendor(app, world.sme.apiKey, { email: kim, fullName: 'Kim Own', walletEmail: smeWallet });
    const split = await createdSplit(
      app,
      world.sme.apiKey,
      splitBody(world, { totalAmountCents: '12000', roster: [subVendorRow(vendor, '10000', { autoWithdrawElected: true })] }),
    );
    const rowId: string = split.distributions[0].id;
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await advance(1);

    // The contractor signs in, adds its own wallet and verifies it with the emailed code.
    await app.request('POST', '/api/auth/magic-link', { body: { email: kim } });
    const link = (await outbox(app)).filter((m) => m.to === kim).pop()!.link;
    const me = browser(sessionCookie(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } })));
    const own = uniqueEmail('kim-own-wallet');
    dataOf(await app.request('POST', '/api/commerce/me/wallet', { headers: me, body: { walletEmail: own } }), 202);
    dataOf(await app.request('POST', '/api/commerce/me/wallet/verify', { headers: me, body: { code: await codeFor(own) } }), 200);
    await app.eventCount();

    dataOf(await app.request('POST', `/api/commerce/integration/splits/${split.id}/distributions/${rowId}/payout`, { token: world.sme.apiKey }), 200);
    await advance(1);
    const paid = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}`, { token: world.sme.apiKey }), 200);
    const withdrawalPayoutId: string = paid.distributions[0].legBWithdrawalPayoutId;
    expect(withdrawalPayoutId).toEqual(expect.any(String));
    const started = (await splitEvents(app, split.id)).find((e) => e.type === 'split.roster_entry.withdrawal_started')!;
    expect(started.data).toMatchObject({ rosterEntryId: rowId, walletEmail: own });
    // The payout rail is asked to pay the contractor's own wallet.
    const requested = (await app.platform.events.readStream(`payout-${withdrawalPayoutId}`)).find((e) => e.type === 'payout.requested')!;
    expect(requested.data).toMatchObject({ kind: 'leg_b_withdrawal', destination: own });
    // The SME still reads the wallet it supplied (never the contractor's own address).
    const listed = (await listSubVendors(app, world.sme.apiKey)).find((v) => v.id === vendor.id);
    expect(listed).toMatchObject({ walletEmail: smeWallet, hasWallet: true });
  });

  it("lists the approved, not yet paid rows paid through the contractor's creator profile as upcoming", async () => {
    const creator = await createCreator(app, { fullName: 'Cleo Creator' });
    const split = await createdSplit(app, world.sme.apiKey, splitBody(world, { totalAmountCents: '8000', roster: [creatorRow(creator, '7000')] }));
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();
    const link = (await outbox(app)).find((m) => m.to === creator.email)!.link;
    const me = browser(sessionCookie(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(link).searchParams.get('token')! } })));
    const upcoming = dataOf(await app.request('GET', '/api/commerce/me/upcoming-earnings', { headers: me }), 200);
    expect(upcoming).toEqual([
      {
        splitId: split.id,
        rosterEntryId: split.distributions[0].id,
        subVendorId: null,
        contractorPaymentProfileId: creator.paymentProfileId,
        smeCompanyId: world.sme.companyId,
        smeCompanyName: 'Own Wallet Staffing',
        amountCents: '7000',
        currency: 'USD',
        status: 'PENDING',
        earlyPayoutElected: false,
        paydayAt: expect.any(String),
      },
    ]);
  });
});
