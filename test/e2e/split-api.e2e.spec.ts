import {
  createBusinessProfile,
  createCreator,
  createdSplit,
  createSme,
  createEnterprise,
  createSplit,
  createSubVendor,
  creatorDistribution,
  creatorRow,
  dataOf,
  emailRow,
  errorEnvelope,
  expectedDistribution,
  expectedSplit,
  expectSplitKeys,
  feeOf,
  ISO_TIMESTAMP,
  issueApiKey,
  listSubVendors,
  newIdempotencyKey,
  outbox,
  RosterRow,
  setupSplitWorld,
  splitBody,
  SplitWorld,
  splitEvents,
  splitEventTypes,
  SUB_VENDOR_ID,
  subVendorDistribution,
  subVendorRow,
  uniqueEmail,
} from '../support/split-fixtures';
import { startTestApp, TestApp, TestResponse } from '../support/test-app';

const SPLITS = '/api/commerce/integration/splits';
const ENTERPRISE_SPLITS = '/api/commerce/splits';

/** A rejected request: exact status, the error envelope with this code, and (optionally) these details. */
function expectError(response: TestResponse, status: number, code: string, details: unknown = expect.any(Array)): void {
  if (response.status !== status || response.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status}: ${response.text}`);
  }
  expect(response.body).toEqual(errorEnvelope(code, details));
}

const detailsAt = (...fields: string[]) => fields.map((field) => ({ field, message: expect.any(String) }));

// ================================================================================================
// Lifecycle: create, approve, reject, revise, auto-accept, cancel (spec 3.3, 4.5, 4.7; DESIGN 6)
// ================================================================================================

describe('Split lifecycle over HTTP', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  /** The enterprise decides on the revision it reviewed: 1, a Split never revised (issue 23). */
  const approve = (id: string, revision = 1, token = world.enterprise.sessionToken) => app.request('POST', `${ENTERPRISE_SPLITS}/${id}/approve`, { token, body: { revision } });
  const reject = (id: string, body: unknown = { revision: 1, reason: 'Hours do not match the timesheet' }, token = world.enterprise.sessionToken) =>
    app.request('POST', `${ENTERPRISE_SPLITS}/${id}/reject`, { token, body });
  const revise = (id: string, body: unknown, token = world.sme.apiKey) => app.request('PUT', `${SPLITS}/${id}/roster`, { token, body });
  const cancel = (id: string, token = world.sme.apiKey) => app.request('POST', `${SPLITS}/${id}/cancel`, { token });
  const get = (id: string, token = world.sme.apiKey) => app.request('GET', `${SPLITS}/${id}`, { token });

  it('creates a Split (201) answering the spec 2.3 shape field by field, and GET answers the same', async () => {
    const rows: RosterRow[] = [
      creatorRow(world.creator, '60000', { earlyPayoutElected: true, autoWithdrawElected: true }),
      subVendorRow(world.walletVendor, '25000', { earlyPayoutElected: true, businessCoversFee: true }),
      subVendorRow(world.plainVendor, '15000', { autoWithdrawElected: true }),
    ];
    const body = splitBody(world, { roster: rows });
    // The SME covers the 375 fee of the 25000 early row and there is no margin: its balance must cover it (issue 23).
    dataOf(await app.request('POST', '/api/sandbox/balance/top-up', { token: world.sme.sessionToken, body: { amountCents: '375', currency: 'USD' } }), 201);
    const response = await createSplit(app, world.sme.apiKey, body);
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    const split = response.body.data;
    expect(Object.keys(response.body)).toEqual(['data']);
    expectSplitKeys(split);
    expect(split).toEqual(
      expectedSplit(world, body, [
        creatorDistribution(world.creator, rows[0]!),
        subVendorDistribution(world.walletVendor, rows[1]!),
        subVendorDistribution(world.plainVendor, rows[2]!),
      ]),
    );
    expect(split.totalAmountCents).toBe('100000');
    expect(split.createdAt).toBe(split.updatedAt);
    expect(Math.abs(Date.parse(split.createdAt) - Date.now())).toBeLessThan(60_000);
    expect(new Set(split.distributions.map((d: { id: string }) => d.id)).size).toBe(3);

    const read = await get(split.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: split });
    expect(await splitEventTypes(app, split.id)).toEqual(['split.created']);
  });

  it('create -> approve: APPROVED, event split.leg_a.approved with splitId and legAPayoutId', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const approved = await approve(created.id);
    expect(approved.status).toBe(200);
    expectSplitKeys(approved.body.data);
    // The enterprise's answer: the SME's reference is the SME's only (issue 29).
    expect(approved.body.data).toEqual({
      ...created,
      reference: null,
      status: 'APPROVED',
      approvals: [{ approvedBy: expect.stringMatching(/^user:/), approvedAt: expect.stringMatching(ISO_TIMESTAMP) }],
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(Date.parse(approved.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));

    const events = await splitEvents(app, created.id);
    // Funding follows approval on its own (process manager); the approval itself is the second event.
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['split.created', 'split.leg_a.approved']);
    expect(events[1]!.data).toMatchObject({ splitId: created.id, legAPayoutId: created.legAPayoutId, autoAccepted: false });
    expect(events[1]!.metadata.actor).toBe(`user:${world.enterprise.userId}`);

    // Approval starts funding on its own; let that background work finish before counting events.
    await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 1 } });
    expect((await get(created.id)).body.data).toEqual({
      ...approved.body.data,
      reference: created.reference,
      status: expect.stringMatching(/^(FUNDED|SETTLING)$/),
      // The SME reads who approved as the enterprise (issue 30).
      approvals: [{ approvedBy: 'enterprise', approvedAt: approved.body.data.approvals[0].approvedAt }],
      fundedAt: expect.stringMatching(ISO_TIMESTAMP),
      paydayAt: expect.stringMatching(ISO_TIMESTAMP),
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
      // Funding bills the enterprise (issue 27).
      invoiceId: `inv_${created.id.slice(4)}`,
      collectionStatus: 'OPEN',
    });

    // approve twice, revise, cancel or reject after approval: 409, nothing appended
    const before = await app.eventCount();
    expectError(await approve(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await revise(created.id, { roster: [subVendorRow(world.plainVendor, '100')] }), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await cancel(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await reject(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expect(await app.eventCount()).toBe(before);
    expect((await splitEventTypes(app, created.id)).slice(0, 2)).toEqual(['split.created', 'split.leg_a.approved']);
  });

  it('create -> reject with a reason: REJECTED, event split.leg_a.rejected', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const rejected = await reject(created.id, { revision: 1, reason: 'Hours do not match the timesheet' });
    expect(rejected.status).toBe(200);
    expectSplitKeys(rejected.body.data);
    expect(rejected.body.data).toEqual({
      ...created,
      reference: null,
      status: 'REJECTED',
      rejectionReason: 'Hours do not match the timesheet',
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    const events = await splitEvents(app, created.id);
    expect(events.map((e) => e.type)).toEqual(['split.created', 'split.leg_a.rejected']);
    expect(events[1]!.data).toMatchObject({ splitId: created.id, legAPayoutId: created.legAPayoutId, reason: 'Hours do not match the timesheet' });
    expect((await get(created.id)).body.data.status).toBe('REJECTED');

    expectError(await approve(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await reject(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await revise(created.id, { roster: [subVendorRow(world.plainVendor, '100')] }), 409, 'SPLIT_NOT_PENDING_APPROVAL');
  });

  it('rejects without a reason (empty body) and records reason null', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const rejected = await reject(created.id, { revision: 1 });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.status).toBe('REJECTED');
    const events = await splitEvents(app, created.id);
    expect(events[1]!.data).toMatchObject({ reason: null });
  });

  it('create -> revise (whole roster and total replaced) -> approve', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const newRows: RosterRow[] = [subVendorRow(world.plainVendor, '30000', { autoWithdrawElected: true }), creatorRow(world.creator, '50000', { earlyPayoutElected: true })];
    const revised = await revise(created.id, { roster: newRows, totalAmountCents: '95000' });
    expect(revised.status).toBe(200);
    expectSplitKeys(revised.body.data);
    expect(revised.body.data).toEqual({
      ...created,
      revision: 2,
      totalAmountCents: '95000',
      marginAmountCents: '15000',
      marginStatus: 'PENDING',
      distributions: [subVendorDistribution(world.plainVendor, newRows[0]!), creatorDistribution(world.creator, newRows[1]!)],
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    const oldIds = new Set(created.distributions.map((d: { id: string }) => d.id));
    for (const row of revised.body.data.distributions) expect(oldIds.has(row.id)).toBe(false);
    expect((await get(created.id)).body.data).toEqual(revised.body.data);

    // revising again with the total omitted bills exactly the new roster sum: margin back to NONE
    const again = await revise(created.id, { roster: [subVendorRow(world.walletVendor, '12345')] });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({
      ...created,
      revision: 3,
      totalAmountCents: '12345',
      marginAmountCents: '0',
      marginStatus: 'NONE',
      distributions: [subVendorDistribution(world.walletVendor, { amountCents: '12345' })],
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });

    const approved = await approve(created.id, again.body.data.revision);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toEqual({
      ...again.body.data,
      reference: null,
      status: 'APPROVED',
      approvals: [{ approvedBy: expect.stringMatching(/^user:/), approvedAt: expect.stringMatching(ISO_TIMESTAMP) }],
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect((await splitEventTypes(app, created.id)).slice(0, 4)).toEqual(['split.created', 'split.roster.revised', 'split.roster.revised', 'split.leg_a.approved']);
  });

  it('auto-accept: the enterprise setting approves at creation; coverFees bills LEG_A_FEE_BPS (100) of the total, half up', async () => {
    const sme = await createSme(app, 'Auto Accepted Ltd');
    const settings = await app.request('PUT', `/api/commerce/split-settings/sme/${sme.companyId}`, {
      token: world.enterprise.sessionToken,
      body: { autoAccept: true, coverFees: true },
    });
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({ data: { enterpriseCompanyId: world.enterprise.companyId, smeCompanyId: sme.companyId, autoAccept: true, coverFees: true } });

    const vendor = await createSubVendor(app, sme.apiKey, { email: uniqueEmail('auto-vendor'), fullName: 'Avery Auto' });
    // 10050 * 1% = 100.5 -> 101 (round half up; banker's rounding would give 100)
    const body = splitBody(world, { roster: [subVendorRow(vendor, '10050')] });
    const response = await createSplit(app, sme.apiKey, body);
    expect(response.status).toBe(201);
    expectSplitKeys(response.body.data);
    expect(response.body.data).toEqual(
      expectedSplit({ sme, enterprise: world.enterprise }, body, [subVendorDistribution(vendor, body.roster[0]!)], {
        status: 'APPROVED',
        enterpriseCoversFee: true,
        enterpriseFeeAmountCents: feeOf('10050', 100),
      }),
    );
    expect(response.body.data.enterpriseFeeAmountCents).toBe('101');
    const events = await splitEvents(app, response.body.data.id);
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['split.created', 'split.leg_a.approved']);
    expect(events[1]!.data).toMatchObject({ splitId: response.body.data.id, legAPayoutId: response.body.data.legAPayoutId, autoAccepted: true });

    // Already approved: the enterprise cannot approve it again.
    expectError(await approve(response.body.data.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
  });

  it('coverFees without auto-accept: PENDING with the fee, recomputed on a revised total', async () => {
    const sme = await createSme(app, 'Fee Covered Ltd');
    const settings = await app.request('PUT', `/api/commerce/split-settings/sme/${sme.companyId}`, {
      token: world.enterprise.sessionToken,
      body: { autoAccept: false, coverFees: true },
    });
    expect(settings.status).toBe(200);
    const vendor = await createSubVendor(app, sme.apiKey, { email: uniqueEmail('fee-vendor'), fullName: 'Frances Fee' });
    const created = await createdSplit(app, sme.apiKey, splitBody(world, { roster: [subVendorRow(vendor, '249')] }));
    expect(created).toMatchObject({ status: 'PENDING_APPROVAL', enterpriseCoversFee: true, enterpriseFeeAmountCents: '2' }); // 2.49 -> 2
    const revised = await revise(created.id, { roster: [subVendorRow(vendor, '250')] }, sme.apiKey);
    expect(revised.body.data).toMatchObject({ totalAmountCents: '250', enterpriseCoversFee: true, enterpriseFeeAmountCents: '3' }); // 2.5 -> 3
  });

  it('split settings for an unknown SME (404) or for oneself (422) append nothing', async () => {
    const before = await app.eventCount();
    expectError(
      await app.request('PUT', '/api/commerce/split-settings/sme/co_unknown', { token: world.enterprise.sessionToken, body: { autoAccept: true, coverFees: false } }),
      404,
      'COMPANY_NOT_FOUND',
    );
    expectError(
      await app.request('PUT', `/api/commerce/split-settings/sme/${world.enterprise.companyId}`, {
        token: world.enterprise.sessionToken,
        body: { autoAccept: true, coverFees: false },
      }),
      422,
      'SPLIT_SETTINGS_FOR_SELF',
    );
    expectError(
      await app.request('PUT', `/api/commerce/split-settings/sme/${world.sme.companyId}`, { token: world.enterprise.sessionToken, body: { autoAccept: 'yes' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await app.eventCount()).toBe(before);
  });

  it('cancel: CANCELLED, then approve, reject, revise and cancel answer 409 SPLIT_NOT_PENDING_APPROVAL', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const cancelled = await cancel(created.id);
    expect(cancelled.status).toBe(200);
    expectSplitKeys(cancelled.body.data);
    expect(cancelled.body.data).toEqual({ ...created, status: 'CANCELLED', updatedAt: expect.stringMatching(ISO_TIMESTAMP) });
    expect(await splitEventTypes(app, created.id)).toEqual(['split.created', 'split.cancelled']);

    const before = await app.eventCount();
    expectError(await approve(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await reject(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await revise(created.id, { roster: [subVendorRow(world.plainVendor, '100')] }), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expectError(await cancel(created.id), 409, 'SPLIT_NOT_PENDING_APPROVAL');
    expect(await app.eventCount()).toBe(before);
    expect((await get(created.id)).body.data.status).toBe('CANCELLED');
  });

  it("shows the enterprise's net terms (PATCH /api/commerce/company) in enterpriseNetTermsDays", async () => {
    const enterprise = await createEnterprise(app, 'Initech');
    const company = await app.request('GET', '/api/commerce/company', { token: enterprise.sessionToken });
    expect(company.body).toEqual({ data: { companyId: enterprise.companyId, name: 'Initech', netTermsDays: 30 } });
    const patched = await app.request('PATCH', '/api/commerce/company', { token: enterprise.sessionToken, body: { netTermsDays: 45 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ data: { companyId: enterprise.companyId, name: 'Initech', netTermsDays: 45 } });

    const body = splitBody({ ...world, enterprise });
    const split = await createdSplit(app, world.sme.apiKey, body);
    expect(split).toEqual(
      expectedSplit({ sme: world.sme, enterprise }, body, [creatorDistribution(world.creator, body.roster[0]!), subVendorDistribution(world.walletVendor, body.roster[1]!)], {
        enterpriseNetTermsDays: 45,
      }),
    );
    for (const netTermsDays of [-1, 366, 1.5, '45']) {
      expectError(await app.request('PATCH', '/api/commerce/company', { token: enterprise.sessionToken, body: { netTermsDays } }), 400, 'VALIDATION_FAILED');
    }
  });
});

// ================================================================================================
// Amounts, margin and bad input (spec 4.5, 7, 8; DESIGN 4, 6)
// ================================================================================================

describe('Split amounts, margin and input validation', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('omitted total: bills exactly the roster sum, marginStatus NONE, marginAmountCents "0"', async () => {
    const body = splitBody(world, { roster: [creatorRow(world.creator, '12345'), subVendorRow(world.walletVendor, '1')] });
    const split = await createdSplit(app, world.sme.apiKey, body);
    expect(split).toEqual(
      expectedSplit(world, body, [creatorDistribution(world.creator, body.roster[0]!), subVendorDistribution(world.walletVendor, body.roster[1]!)], {
        totalAmountCents: '12346',
        marginAmountCents: '0',
        marginStatus: 'NONE',
      }),
    );
  });

  it('a total equal to the roster sum is no margin either', async () => {
    const split = await createdSplit(app, world.sme.apiKey, splitBody(world, { totalAmountCents: '100000' }));
    expect(split).toMatchObject({ totalAmountCents: '100000', marginAmountCents: '0', marginStatus: 'NONE' });
  });

  it('allows a margin of exactly 20% of the total (PENDING)', async () => {
    const body = splitBody(world, { roster: [creatorRow(world.creator, '50000'), subVendorRow(world.plainVendor, '30000')], totalAmountCents: '100000' });
    const split = await createdSplit(app, world.sme.apiKey, body);
    expectSplitKeys(split);
    expect(split).toEqual(
      expectedSplit(world, body, [creatorDistribution(world.creator, body.roster[0]!), subVendorDistribution(world.plainVendor, body.roster[1]!)], {
        totalAmountCents: '100000',
        marginAmountCents: '20000',
        marginStatus: 'PENDING',
      }),
    );
  });

  const amountRules: [string, (w: SplitWorld) => unknown, string, string[]][] = [
    [
      'a margin of 20% + 1 cent',
      (w) => splitBody(w, { roster: [creatorRow(w.creator, '50000'), subVendorRow(w.plainVendor, '29999')], totalAmountCents: '100000' }),
      'SPLIT_MARGIN_CAP_EXCEEDED',
      ['totalAmountCents'],
    ],
    ['a total below the roster sum', (w) => splitBody(w, { totalAmountCents: '99999' }), 'SPLIT_TOTAL_BELOW_ROSTER_SUM', ['totalAmountCents']],
    ['a roster sum of zero', (w) => splitBody(w, { roster: [creatorRow(w.creator, '0'), subVendorRow(w.walletVendor, '0')] }), 'SPLIT_ROSTER_SUM_ZERO', ['roster']],
    [
      'a zero row next to a positive one',
      (w) => splitBody(w, { roster: [creatorRow(w.creator, '100'), subVendorRow(w.walletVendor, '0')] }),
      'SPLIT_ROW_AMOUNT_NOT_POSITIVE',
      ['roster.1.amountCents'],
    ],
    ['a row amount above 10^15', (w) => splitBody(w, { roster: [creatorRow(w.creator, '1000000000000001')] }), 'SPLIT_AMOUNT_INVALID', ['roster.0.amountCents']],
    ['a total above 10^15', (w) => splitBody(w, { totalAmountCents: '1000000000000001' }), 'SPLIT_AMOUNT_INVALID', ['totalAmountCents']],
    [
      'a roster sum above 10^15 with the total omitted',
      (w) => splitBody(w, { roster: [creatorRow(w.creator, '1000000000000000'), subVendorRow(w.walletVendor, '1000000000000000')] }),
      'SPLIT_ROSTER_SUM_TOO_LARGE',
      ['roster'],
    ],
    [
      'a 400 amount rule before any 422 party rule (unknown enterprise and margin over the cap)',
      (w) => splitBody(w, { enterpriseCompanyId: 'co_unknown', roster: [creatorRow(w.creator, '100')], totalAmountCents: '200' }),
      'SPLIT_MARGIN_CAP_EXCEEDED',
      ['totalAmountCents'],
    ],
  ];

  it.each(amountRules)('refuses %s with 400 and appends nothing', async (_label, build, code, fields) => {
    const before = await app.eventCount();
    expectError(await createSplit(app, world.sme.apiKey, build(world)), 400, code, detailsAt(...fields));
    expect(await app.eventCount()).toBe(before);
  });

  it('applies the same amount rules when revising, appending nothing', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const before = await app.eventCount();
    const put = (body: unknown) => app.request('PUT', `${SPLITS}/${created.id}/roster`, { token: world.sme.apiKey, body });
    expectError(await put({ roster: [subVendorRow(world.plainVendor, '79999')], totalAmountCents: '100000' }), 400, 'SPLIT_MARGIN_CAP_EXCEEDED');
    expectError(await put({ roster: [subVendorRow(world.plainVendor, '100')], totalAmountCents: '99' }), 400, 'SPLIT_TOTAL_BELOW_ROSTER_SUM');
    expectError(await put({ roster: [subVendorRow(world.plainVendor, '0')] }), 400, 'SPLIT_ROSTER_SUM_ZERO');
    expectError(await put({ roster: [] }), 400, 'VALIDATION_FAILED');
    expectError(await put({}), 400, 'VALIDATION_FAILED');
    expectError(await put({ roster: [subVendorRow(world.plainVendor, '100')], enterpriseCompanyId: world.enterprise.companyId }), 400, 'VALIDATION_FAILED');
    expect(await app.eventCount()).toBe(before);
    expect(await splitEventTypes(app, created.id)).toEqual(['split.created']);
  });

  const rowOf = (w: SplitWorld) => subVendorRow(w.walletVendor, '1000');
  const badBodies: [string, (w: SplitWorld) => { body?: unknown; rawBody?: string }, string, string | null][] = [
    [
      'amountCents as a number',
      (w) => ({ body: splitBody(w, { roster: [{ subVendorId: w.walletVendor.id, amountCents: 1000 } as unknown as RosterRow] }) }),
      'VALIDATION_FAILED',
      'roster.0.amountCents',
    ],
    [
      'earlyPayoutElected as "yes"',
      (w) => ({ body: splitBody(w, { roster: [{ ...rowOf(w), earlyPayoutElected: 'yes' } as unknown as RosterRow] }) }),
      'VALIDATION_FAILED',
      'roster.0.earlyPayoutElected',
    ],
    [
      'autoWithdrawElected as 1',
      (w) => ({ body: splitBody(w, { roster: [{ ...rowOf(w), autoWithdrawElected: 1 } as unknown as RosterRow] }) }),
      'VALIDATION_FAILED',
      'roster.0.autoWithdrawElected',
    ],
    ['totalAmountCents as a number', (w) => ({ body: { ...splitBody(w), totalAmountCents: 100000 } }), 'VALIDATION_FAILED', 'totalAmountCents'],
    ['no clientIdempotencyKey', (w) => ({ body: omit(splitBody(w), 'clientIdempotencyKey') }), 'VALIDATION_FAILED', 'clientIdempotencyKey'],
    ['an empty clientIdempotencyKey', (w) => ({ body: splitBody(w, { clientIdempotencyKey: '' }) }), 'VALIDATION_FAILED', 'clientIdempotencyKey'],
    ['a clientIdempotencyKey over 255 characters', (w) => ({ body: splitBody(w, { clientIdempotencyKey: 'k'.repeat(256) }) }), 'VALIDATION_FAILED', 'clientIdempotencyKey'],
    ['enterpriseCompanyId as a number', (w) => ({ body: { ...splitBody(w), enterpriseCompanyId: 42 } }), 'VALIDATION_FAILED', 'enterpriseCompanyId'],
    ['no enterpriseCompanyId', (w) => ({ body: omit(splitBody(w), 'enterpriseCompanyId') }), 'VALIDATION_FAILED', 'enterpriseCompanyId'],
    ['no apContactBusinessProfileId', (w) => ({ body: omit(splitBody(w), 'apContactBusinessProfileId') }), 'VALIDATION_FAILED', 'apContactBusinessProfileId'],
    ['no roster', (w) => ({ body: omit(splitBody(w), 'roster') }), 'VALIDATION_FAILED', 'roster'],
    ['a row without amountCents', (w) => ({ body: splitBody(w, { roster: [{ subVendorId: w.walletVendor.id } as RosterRow] }) }), 'VALIDATION_FAILED', 'roster.0.amountCents'],
    ['51 rows', (w) => ({ body: splitBody(w, { roster: Array.from({ length: 51 }, () => rowOf(w)) }) }), 'VALIDATION_FAILED', 'roster'],
    ['0 rows', (w) => ({ body: splitBody(w, { roster: [] }) }), 'VALIDATION_FAILED', 'roster'],
    ['a negative amount "-5"', (w) => ({ body: splitBody(w, { roster: [subVendorRow(w.walletVendor, '-5')] }) }), 'VALIDATION_FAILED', 'roster.0.amountCents'],
    ['a decimal amount "10.5"', (w) => ({ body: splitBody(w, { roster: [subVendorRow(w.walletVendor, '10.5')] }) }), 'VALIDATION_FAILED', 'roster.0.amountCents'],
    [
      'a huge amount "99999999999999999999"',
      (w) => ({ body: splitBody(w, { roster: [subVendorRow(w.walletVendor, '99999999999999999999')] }) }),
      'VALIDATION_FAILED',
      'roster.0.amountCents',
    ],
    ['a leading zero "0100"', (w) => ({ body: splitBody(w, { roster: [subVendorRow(w.walletVendor, '0100')] }) }), 'VALIDATION_FAILED', 'roster.0.amountCents'],
    ['an amount with spaces " 100"', (w) => ({ body: splitBody(w, { roster: [subVendorRow(w.walletVendor, ' 100')] }) }), 'VALIDATION_FAILED', 'roster.0.amountCents'],
    ['a negative total "-1"', (w) => ({ body: splitBody(w, { totalAmountCents: '-1' }) }), 'VALIDATION_FAILED', 'totalAmountCents'],
    [
      'a row with two contractor fields',
      (w) => ({ body: splitBody(w, { roster: [{ ...rowOf(w), contractorPaymentProfileId: w.creator.paymentProfileId }] }) }),
      'VALIDATION_FAILED',
      'roster.0',
    ],
    [
      'a row with all three contractor fields',
      (w) => ({ body: splitBody(w, { roster: [{ ...rowOf(w), contractorPaymentProfileId: w.creator.paymentProfileId, email: uniqueEmail('x') }] }) }),
      'VALIDATION_FAILED',
      'roster.0',
    ],
    ['a row with no contractor field', (w) => ({ body: splitBody(w, { roster: [rowOf(w), { amountCents: '1000' }] }) }), 'VALIDATION_FAILED', 'roster.1'],
    ['fullName without email', (w) => ({ body: splitBody(w, { roster: [{ ...rowOf(w), fullName: 'Nobody' }] }) }), 'VALIDATION_FAILED', 'roster.0.fullName'],
    ['an invalid email', (w) => ({ body: splitBody(w, { roster: [emailRow('not-an-email', '1000')] }) }), 'VALIDATION_FAILED', 'roster.0.email'],
    ['an unknown top-level field', (w) => ({ body: { ...splitBody(w), currency: 'USD' } }), 'VALIDATION_FAILED', 'currency'],
    ['an unknown row field', (w) => ({ body: splitBody(w, { roster: [{ ...rowOf(w), note: 'x' } as RosterRow] }) }), 'VALIDATION_FAILED', 'roster.0.note'],
    ['the roster as an object', (w) => ({ body: { ...splitBody(w), roster: { 0: rowOf(w) } } }), 'VALIDATION_FAILED', 'roster'],
    ['a row that is not an object', (w) => ({ body: splitBody(w, { roster: ['1000' as unknown as RosterRow] }) }), 'VALIDATION_FAILED', 'roster.0'],
    ['a null body', () => ({ rawBody: 'null' }), 'VALIDATION_FAILED', null],
    ['an array body', () => ({ rawBody: '[]' }), 'VALIDATION_FAILED', null],
    ['malformed JSON', () => ({ rawBody: '{"enterpriseCompanyId": ' }), 'MALFORMED_BODY', null],
  ];

  it.each(badBodies)('refuses %s with 400 in the error envelope and appends nothing', async (_label, build, code, field) => {
    const before = await app.eventCount();
    const outboxBefore = (await outbox(app)).length;
    const response = await app.request('POST', SPLITS, { token: world.sme.apiKey, ...build(world) });
    expectError(response, 400, code);
    if (field !== null) expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await app.eventCount()).toBe(before);
    expect((await outbox(app)).length).toBe(outboxBefore);
  });

  it('names each missing field once, with one message, however many rules it has', async () => {
    const body = omit(omit(splitBody(world), 'clientIdempotencyKey'), 'roster');
    const response = await app.request('POST', SPLITS, { token: world.sme.apiKey, body });
    expectError(response, 400, 'VALIDATION_FAILED');
    expect(response.body.error.details).toEqual([
      { field: 'clientIdempotencyKey', message: 'clientIdempotencyKey should not be null or undefined' },
      { field: 'roster', message: 'roster should not be null or undefined' },
    ]);
    const tooLong = await app.request('POST', SPLITS, { token: world.sme.apiKey, body: splitBody(world, { clientIdempotencyKey: 'k'.repeat(256) }) });
    expect(tooLong.body.error.details).toEqual([{ field: 'clientIdempotencyKey', message: expect.stringContaining('shorter than or equal to 255') }]);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const before = await app.eventCount();
    const body = splitBody(world, { clientIdempotencyKey: 'k'.repeat(1024 * 1024 + 10) });
    expectError(await createSplit(app, world.sme.apiKey, body), 413, 'PAYLOAD_TOO_LARGE');
    expect(await app.eventCount()).toBe(before);
  });
});

function omit<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

// ================================================================================================
// Contractors: rows by email (spec 4.5) and the 422 rules (spec 7; DESIGN 5, 6)
// ================================================================================================

describe('Split roster contractors', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const messagesTo = async (email: string) => (await outbox(app)).filter((m) => m.to === email.toLowerCase());

  it('email case 1: an email already a SubVendor of the SME is reused as is (same subVendorId, its own name and wallet)', async () => {
    const vendorsBefore = await listSubVendors(app, world.sme.apiKey);
    const outboxBefore = (await outbox(app)).length;
    const rows = [emailRow(world.walletVendor.email.toUpperCase(), '7000', { fullName: 'A Different Name', earlyPayoutElected: true })];
    const body = splitBody(world, { roster: rows });
    const split = await createdSplit(app, world.sme.apiKey, body);
    expectSplitKeys(split);
    expect(split).toEqual(expectedSplit(world, body, [subVendorDistribution(world.walletVendor, rows[0]!)]));
    expect(split.distributions[0]).toMatchObject({ subVendorId: world.walletVendor.id, contractorPaymentProfileId: null, contractorDisplayName: 'Wanda Wallet' });
    expect(await listSubVendors(app, world.sme.apiKey)).toEqual(vendorsBefore);
    expect((await outbox(app)).length).toBe(outboxBefore);
  });

  it("email case 2: an existing account (the enterprise user's email) gets a SubVendor attached at once, no invite", async () => {
    // A sign-up is an account for this only once its address is confirmed (issue 24): follow the link.
    const confirmation = (await outbox(app)).find((message) => message.to === world.enterprise.email)!;
    expect((await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: new URL(confirmation.link).searchParams.get('token')! } })).status).toBe(200);
    const outboxBefore = (await outbox(app)).length;
    const rows = [emailRow(world.enterprise.email, '8000', { fullName: 'Grace Globex' })];
    const body = splitBody(world, { roster: rows });
    const split = await createdSplit(app, world.sme.apiKey, body);
    const subVendorId = split.distributions[0].subVendorId;
    expect(subVendorId).toMatch(SUB_VENDOR_ID);
    expect(split).toEqual(expectedSplit(world, body, [expectedDistribution({ subVendorId, contractorDisplayName: 'Grace Globex', creatorProfileId: null }, rows[0]!)]));
    expect((await outbox(app)).length).toBe(outboxBefore);
    const vendor = (await listSubVendors(app, world.sme.apiKey)).find((v) => v.id === subVendorId);
    expect(vendor).toEqual({
      id: subVendorId,
      smeCompanyId: world.sme.companyId,
      email: world.enterprise.email,
      fullName: 'Grace Globex',
      walletEmail: null,
      hasWallet: false,
      kind: 'PERSON',
      userId: world.enterprise.userId,
      creatorProfileId: null,
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    // The same email again is now case 1: the same SubVendor.
    const again = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [emailRow(world.enterprise.email, '1')] }));
    expect(again.distributions[0]).toMatchObject({ subVendorId, contractorDisplayName: 'Grace Globex' });
  });

  it("email case 2: a creator's email gets a SubVendor with the creator's profile, paid to its verified wallet (so instant payout is allowed), showing neither its name nor its wallet (issue 24)", async () => {
    const creator = await createCreator(app, { fullName: 'Morgan Maker' });
    const outboxBefore = (await outbox(app)).length;
    const rows = [emailRow(creator.email, '9000', { earlyPayoutElected: true })];
    const body = splitBody(world, { roster: rows });
    const split = await createdSplit(app, world.sme.apiKey, body);
    const subVendorId = split.distributions[0].subVendorId;
    expect(subVendorId).toMatch(SUB_VENDOR_ID);
    expect(split).toEqual(
      // The SME named nobody: the row shows the email it gave, not the account's name.
      expectedSplit(world, body, [expectedDistribution({ subVendorId, contractorDisplayName: creator.email, creatorProfileId: creator.creatorProfileId }, rows[0]!)]),
    );
    expect((await outbox(app)).length).toBe(outboxBefore);
    const vendor = (await listSubVendors(app, world.sme.apiKey)).find((v) => v.id === subVendorId);
    expect(vendor).toMatchObject({ email: creator.email, userId: creator.userId, creatorProfileId: creator.creatorProfileId, fullName: null, walletEmail: null, hasWallet: true });
    const [created] = await splitEvents(app, split.id);
    expect((created!.data as { distributions: { walletEmail: string | null }[] }).distributions[0]!.walletEmail).toBe(creator.walletEmail);
  });

  it('email case 3: a brand-new email provisions a passwordless account, active at once, that signs in by magic link', async () => {
    const email = uniqueEmail('new-contractor');
    const nameless = uniqueEmail('nameless');
    const rows = [emailRow(email, '11000', { fullName: 'Dana Newcomer', autoWithdrawElected: true }), emailRow(nameless, '500')];
    const body = splitBody(world, { roster: rows });
    const split = await createdSplit(app, world.sme.apiKey, body);
    const [danaId, namelessId] = split.distributions.map((d: { subVendorId: string }) => d.subVendorId);
    expect(danaId).toMatch(SUB_VENDOR_ID);
    expect(namelessId).toMatch(SUB_VENDOR_ID);
    expect(split).toEqual(
      expectedSplit(world, body, [
        expectedDistribution({ subVendorId: danaId, contractorDisplayName: 'Dana Newcomer', creatorProfileId: null }, rows[0]!),
        expectedDistribution({ subVendorId: namelessId, contractorDisplayName: nameless, creatorProfileId: null }, rows[1]!),
      ]),
    );

    const messages = await messagesTo(email);
    expect(messages).toEqual([
      {
        id: expect.any(String),
        to: email,
        subject: expect.any(String),
        body: expect.stringContaining(messages[0]!.link),
        link: expect.stringMatching(/\/api\/auth\/magic-link\?token=/),
        sentAt: expect.stringMatching(ISO_TIMESTAMP),
      },
    ]);
    expect(await messagesTo(nameless)).toHaveLength(1);

    const vendor = (await listSubVendors(app, world.sme.apiKey)).find((v) => v.id === danaId)!;
    expect(vendor).toEqual({
      id: danaId,
      smeCompanyId: world.sme.companyId,
      email,
      fullName: 'Dana Newcomer',
      walletEmail: null,
      hasWallet: false,
      kind: 'PERSON',
      userId: expect.stringMatching(/^usr_/),
      creatorProfileId: null,
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
    });

    const token = new URL(messages[0]!.link).searchParams.get('token')!;
    const signedIn = await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({
      data: {
        userId: vendor.userId,
        companyId: expect.stringMatching(/^co_/),
        sessionToken: expect.stringMatching(/^sess_/),
        role: 'owner',
        companies: [expect.objectContaining({ role: 'owner' })],
      },
    });
    const session = signedIn.body.data.sessionToken;
    const company = await app.request('GET', '/api/commerce/company', { token: session });
    expect(company.body.data).toEqual({ companyId: signedIn.body.data.companyId, name: 'Dana Newcomer', netTermsDays: 30 });
    // Single use.
    expectError(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token } }), 401, 'MAGIC_LINK_INVALID');
    expectError(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: 'ml_nope' } }), 401, 'MAGIC_LINK_INVALID');

    // "As if subVendorId had been sent": the same contractor by id resolves identically.
    const byId = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [subVendorRow(vendor, '11000', { autoWithdrawElected: true })] }));
    expect({ ...byId.distributions[0], id: null }).toEqual({ ...split.distributions[0], id: null });
    // The same email again provisions nothing more.
    await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [emailRow(email, '1')] }));
    expect(await messagesTo(email)).toHaveLength(1);
  });

  it('revising with a brand-new email row provisions it too', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const email = uniqueEmail('revised-in');
    const revised = await app.request('PUT', `${SPLITS}/${created.id}/roster`, {
      token: world.sme.apiKey,
      body: { roster: [emailRow(email, '4000', { fullName: 'Rory Revised' })] },
    });
    expect(revised.status).toBe(200);
    expect(revised.body.data.distributions).toEqual([
      expectedDistribution({ subVendorId: expect.stringMatching(SUB_VENDOR_ID), contractorDisplayName: 'Rory Revised', creatorProfileId: null }, { amountCents: '4000' }),
    ]);
    expect(await messagesTo(email)).toHaveLength(1);
  });

  it('registers sub-vendors idempotently per email (201, then 200 + Idempotent-Replayed) and lists them with page meta', async () => {
    const email = uniqueEmail('registry');
    const walletEmail = uniqueEmail('registry-wallet');
    const created = await app.request('POST', '/api/commerce/integration/sub-vendors', {
      token: world.sme.apiKey,
      body: { email: email.toUpperCase(), fullName: 'Reggie Registry', walletEmail, kind: 'BUSINESS' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    expect(created.body).toEqual({
      data: {
        id: expect.stringMatching(SUB_VENDOR_ID),
        smeCompanyId: world.sme.companyId,
        email,
        fullName: 'Reggie Registry',
        walletEmail,
        hasWallet: true,
        kind: 'BUSINESS',
        userId: expect.stringMatching(/^usr_/),
        creatorProfileId: null,
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
      },
    });
    expect((await outbox(app)).filter((m) => m.to === email)).toHaveLength(1);

    const before = await app.eventCount();
    const again = await app.request('POST', '/api/commerce/integration/sub-vendors', { token: world.sme.apiKey, body: { email, fullName: 'Changed Name' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(created.body);
    expect(await app.eventCount()).toBe(before);

    const listed = await app.request('GET', '/api/commerce/integration/sub-vendors?limit=2', { token: world.sme.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toEqual({ page: 1, limit: 2, total: expect.any(Number), totalPages: Math.ceil(listed.body.meta.total / 2) });
    expect(listed.body.data).toEqual([world.walletVendor, world.plainVendor]); // oldest first

    for (const body of [{}, { email: 'nope' }, { email, kind: 'ROBOT' }, { email, walletEmail: 'x' }, { email, extra: 1 }]) {
      expectError(await app.request('POST', '/api/commerce/integration/sub-vendors', { token: world.sme.apiKey, body }), 400, 'VALIDATION_FAILED');
    }
    expect(await app.eventCount()).toBe(before);
  });

  it('adds a wallet email to a sub-vendor after creation (PATCH, own roster only), after which instant payout can be elected (issue 15)', async () => {
    const vendor = await createSubVendor(app, world.sme.apiKey, { email: uniqueEmail('late-wallet'), fullName: 'Lou Later' });
    expect(vendor.walletEmail).toBeNull();
    const instant = () => createSplit(app, world.sme.apiKey, splitBody(world, { roster: [subVendorRow(vendor, '1000', { earlyPayoutElected: true })] }));
    expectError(await instant(), 422, 'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL');
    const patch = (id: string, body: unknown, token = world.sme.apiKey) => app.request('PATCH', `/api/commerce/integration/sub-vendors/${id}`, { token, body });
    const walletEmail = uniqueEmail('late-wallet-w');

    const before = await app.eventCount();
    const otherSme = await createSme(app, 'Nosy SME');
    const afterSetup = await app.eventCount();
    expectError(await patch(vendor.id, { walletEmail }, otherSme.apiKey), 404, 'SUB_VENDOR_NOT_FOUND');
    expectError(await patch('sv_unknown', { walletEmail }), 404, 'SUB_VENDOR_NOT_FOUND');
    expectError(await patch('constructor', { walletEmail }), 404, 'SUB_VENDOR_NOT_FOUND');
    for (const body of [{}, { walletEmail: 'nope' }, { walletEmail: null }, { walletEmail, extra: 1 }]) expectError(await patch(vendor.id, body), 400, 'VALIDATION_FAILED');
    expect(await app.eventCount()).toBe(afterSetup);
    expect(afterSetup).toBeGreaterThan(before);

    const updated = await patch(vendor.id, { walletEmail });
    expect(updated.status).toBe(200);
    expect(vendor.hasWallet).toBe(false);
    expect(updated.body.data).toEqual({ ...vendor, walletEmail, hasWallet: true });
    expect((await app.eventCount()) - afterSetup).toBe(1);
    const again = await patch(vendor.id, { walletEmail });
    expect(again.body.data).toEqual(updated.body.data);
    expect((await app.eventCount()) - afterSetup).toBe(1);
    expect((await listSubVendors(app, world.sme.apiKey)).find((v) => v.id === vendor.id)).toEqual(updated.body.data);

    const split = dataOf(await instant(), 201);
    expect(split.distributions[0]).toMatchObject({ subVendorId: vendor.id, earlyPayoutElected: true });
  });

  it("a SubVendor for someone's email shows only what the SME supplied, and its rows pay only to an active, verified wallet (issue 24)", async () => {
    const unverified = await createCreator(app, { fullName: 'Una Unverified', walletVerified: false });
    const verified = await createCreator(app, { fullName: 'Vera Verified' });
    const sme = await createSme(app, 'Lookup Staffing');
    const register = async (email: string) => dataOf(await app.request('POST', '/api/commerce/integration/sub-vendors', { token: sme.apiKey, body: { email } }), 201);

    const unverifiedVendor = await register(unverified.email);
    const verifiedVendor = await register(verified.email);

    // Auto-withdraw pays the row's recorded wallet: an unverified one is never recorded, a verified one is.
    const split = await createdSplit(
      app,
      sme.apiKey,
      splitBody(world, {
        roster: [subVendorRow(unverifiedVendor, '1000', { autoWithdrawElected: true }), subVendorRow(verifiedVendor, '2000', { autoWithdrawElected: true })],
      }),
    );
    const recorded = async (splitId: string) =>
      ((await splitEvents(app, splitId))[0]!.data as { distributions: { walletEmail: string | null }[] }).distributions.map((row) => row.walletEmail);
    expect(await recorded(split.id)).toEqual([null, verified.walletEmail]);
    expect(split.distributions.map((row: { contractorDisplayName: string }) => row.contractorDisplayName)).toEqual([unverified.email, verified.email]);

    // The SubVendor shows what the SME supplied (an email), whether a wallet is on file, and nothing of the account.
    expect(unverifiedVendor).toMatchObject({ email: unverified.email, fullName: null, walletEmail: null, hasWallet: false });
    expect(verifiedVendor).toMatchObject({ email: verified.email, fullName: null, walletEmail: null, hasWallet: true });
    const listed = JSON.stringify(await listSubVendors(app, sme.apiKey));
    for (const secret of [unverified.fullName, unverified.walletEmail!, verified.fullName, verified.walletEmail!]) {
      expect(JSON.stringify([unverifiedVendor, verifiedVendor])).not.toContain(secret);
      expect(listed).not.toContain(secret);
    }
    // A roster row by email resolves the same way (another SME: a new SubVendor).
    const other = await createSme(app, 'Lookup Two');
    const byEmail = await createdSplit(app, other.apiKey, splitBody(world, { roster: [emailRow(unverified.email.toUpperCase(), '3000', { autoWithdrawElected: true })] }));
    expect(await recorded(byEmail.id)).toEqual([null]);
  });

  it('a passwordless account cannot log in with a password', async () => {
    const email = uniqueEmail('passwordless');
    await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [emailRow(email, '100')] }));
    expectError(await app.request('POST', '/api/auth/login', { body: { email, password: 'correct horse battery' } }), 401, 'INVALID_CREDENTIALS');
  });

  // ---- 422 rules -----------------------------------------------------------------------------

  let inactiveCreator: { paymentProfileId: string };
  let walletlessCreator: { paymentProfileId: string };
  let foreignVendorId: string;
  let smeOwnProfileId: string;
  beforeAll(async () => {
    inactiveCreator = await createCreator(app, { fullName: 'Ivy Inactive', active: false });
    walletlessCreator = await createCreator(app, { fullName: 'Nell No-Wallet', walletEmail: null });
    const otherSme = await createSme(app, 'Other SME');
    foreignVendorId = (await createSubVendor(app, otherSme.apiKey, { email: uniqueEmail('foreign'), fullName: 'Fiona Foreign', walletEmail: uniqueEmail('fw') })).id;
    smeOwnProfileId = (await createBusinessProfile(app, world.sme.sessionToken, 'Acme AP')).id;
  });

  /** Row 0 is always a brand-new email: a refused request must not provision it. */
  const rules: [string, (w: SplitWorld, newEmail: string) => unknown, string, unknown][] = [
    [
      'an unknown contractorPaymentProfileId',
      (w, e) => splitBody(w, { roster: [emailRow(e, '100'), { contractorPaymentProfileId: 'cpp_unknown', amountCents: '100' }] }),
      'SPLIT_CONTRACTOR_NOT_ACTIVE_CREATOR',
      detailsAt('roster.1.contractorPaymentProfileId'),
    ],
    [
      "an inactive creator's contractorPaymentProfileId",
      (w, e) => splitBody(w, { roster: [emailRow(e, '100'), { contractorPaymentProfileId: inactiveCreator.paymentProfileId, amountCents: '100' }] }),
      'SPLIT_CONTRACTOR_NOT_ACTIVE_CREATOR',
      detailsAt('roster.1.contractorPaymentProfileId'),
    ],
    [
      'a subVendorId of another company',
      (w, e) => splitBody(w, { roster: [emailRow(e, '100'), { subVendorId: foreignVendorId, amountCents: '100' }] }),
      'SPLIT_SUB_VENDOR_NOT_OWNED',
      detailsAt('roster.1.subVendorId'),
    ],
    [
      'an unknown subVendorId',
      (w, e) => splitBody(w, { roster: [emailRow(e, '100'), { subVendorId: 'sv_unknown', amountCents: '100' }] }),
      'SPLIT_SUB_VENDOR_NOT_OWNED',
      detailsAt('roster.1.subVendorId'),
    ],
    [
      'earlyPayoutElected for a sub-vendor without a wallet email',
      (w, e) => splitBody(w, { roster: [emailRow(e, '100'), subVendorRow(w.plainVendor, '100', { earlyPayoutElected: true })] }),
      'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL',
      detailsAt('roster.1.earlyPayoutElected'),
    ],
    [
      'earlyPayoutElected for a creator without a wallet',
      (w, e) => splitBody(w, { roster: [emailRow(e, '100'), { contractorPaymentProfileId: walletlessCreator.paymentProfileId, amountCents: '100', earlyPayoutElected: true }] }),
      'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL',
      detailsAt('roster.1.earlyPayoutElected'),
    ],
    [
      'earlyPayoutElected for a brand-new email (no wallet email on file yet)',
      (w, e) => splitBody(w, { roster: [emailRow(e, '100', { earlyPayoutElected: true })] }),
      'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL',
      detailsAt('roster.0.earlyPayoutElected'),
    ],
    [
      "an AP contact that is the SME's own business profile",
      (w, e) => splitBody(w, { apContactBusinessProfileId: smeOwnProfileId, roster: [emailRow(e, '100')] }),
      'SPLIT_AP_CONTACT_INVALID',
      detailsAt('apContactBusinessProfileId'),
    ],
    [
      'an unknown AP contact',
      (w, e) => splitBody(w, { apContactBusinessProfileId: 'bp_unknown', roster: [emailRow(e, '100')] }),
      'SPLIT_AP_CONTACT_INVALID',
      detailsAt('apContactBusinessProfileId'),
    ],
    [
      'an unknown enterprise',
      (w, e) => splitBody(w, { enterpriseCompanyId: 'co_unknown', roster: [emailRow(e, '100')] }),
      'SPLIT_ENTERPRISE_UNKNOWN',
      detailsAt('enterpriseCompanyId'),
    ],
    [
      'the SME itself as the enterprise',
      (w, e) => splitBody(w, { enterpriseCompanyId: w.sme.companyId, apContactBusinessProfileId: smeOwnProfileId, roster: [emailRow(e, '100')] }),
      'SPLIT_ENTERPRISE_UNKNOWN',
      detailsAt('enterpriseCompanyId'),
    ],
  ];

  it.each(rules)('refuses %s with 422, appends nothing and provisions nothing', async (_label, build, code, details) => {
    const email = uniqueEmail('never-provisioned');
    const before = await app.eventCount();
    const outboxBefore = await outbox(app);
    const vendorsBefore = await listSubVendors(app, world.sme.apiKey);
    expectError(await createSplit(app, world.sme.apiKey, build(world, email)), 422, code, details);
    expect(await app.eventCount()).toBe(before);
    expect(await outbox(app)).toEqual(outboxBefore);
    expect(await listSubVendors(app, world.sme.apiKey)).toEqual(vendorsBefore);
  });

  it('applies the 422 rules when revising, appending and provisioning nothing', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const email = uniqueEmail('never-revised-in');
    const before = await app.eventCount();
    const outboxBefore = (await outbox(app)).length;
    const put = (roster: RosterRow[]) => app.request('PUT', `${SPLITS}/${created.id}/roster`, { token: world.sme.apiKey, body: { roster } });
    expectError(await put([emailRow(email, '1'), { subVendorId: foreignVendorId, amountCents: '1' }]), 422, 'SPLIT_SUB_VENDOR_NOT_OWNED', detailsAt('roster.1.subVendorId'));
    expectError(await put([emailRow(email, '1'), { contractorPaymentProfileId: inactiveCreator.paymentProfileId, amountCents: '1' }]), 422, 'SPLIT_CONTRACTOR_NOT_ACTIVE_CREATOR');
    expectError(await put([emailRow(email, '1'), subVendorRow(world.plainVendor, '1', { earlyPayoutElected: true })]), 422, 'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL');
    expectError(
      await put([emailRow(email, '1'), { contractorPaymentProfileId: walletlessCreator.paymentProfileId, amountCents: '1', earlyPayoutElected: true }]),
      422,
      'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL',
      detailsAt('roster.1.earlyPayoutElected'),
    );
    expect(await app.eventCount()).toBe(before);
    expect((await outbox(app)).length).toBe(outboxBefore);
  });

  it('refuses a roster naming one contractor twice with 400 SPLIT_DUPLICATE_CONTRACTOR, on create and on revise, appending and provisioning nothing', async () => {
    const created = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const email = uniqueEmail('twice');
    const before = await app.eventCount();
    const outboxBefore = (await outbox(app)).length;
    const vendorsBefore = await listSubVendors(app, world.sme.apiKey);
    const put = (roster: RosterRow[]) => app.request('PUT', `${SPLITS}/${created.id}/roster`, { token: world.sme.apiKey, body: { roster } });
    const twice: RosterRow[][] = [
      [creatorRow(world.creator, '100'), subVendorRow(world.walletVendor, '100'), creatorRow(world.creator, '50')],
      [subVendorRow(world.walletVendor, '100'), emailRow(world.walletVendor.email.toUpperCase(), '100')],
      [emailRow(email, '100'), emailRow(email, '100')],
    ];
    for (const roster of twice) {
      const at = detailsAt(`roster.${roster.length - 1}.contractor`);
      expectError(await createSplit(app, world.sme.apiKey, splitBody(world, { roster })), 400, 'SPLIT_DUPLICATE_CONTRACTOR', at);
      expectError(await put(roster), 400, 'SPLIT_DUPLICATE_CONTRACTOR', at);
    }
    expect(await app.eventCount()).toBe(before);
    expect((await outbox(app)).length).toBe(outboxBefore);
    expect(await listSubVendors(app, world.sme.apiKey)).toEqual(vendorsBefore);
  });
});

// ================================================================================================
// Idempotency (spec 4.5; DESIGN 4, 6)
// ================================================================================================

describe('Split create idempotency', () => {
  let app: TestApp;
  let world: SplitWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers a repeat of the same clientIdempotencyKey with 200, Idempotent-Replayed: true and the same Split', async () => {
    const body = splitBody(world);
    const first = await createSplit(app, world.sme.apiKey, body);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await app.eventCount();

    const again = await createSplit(app, world.sme.apiKey, body);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await app.eventCount()).toBe(before);

    // The same request with its fields in another order and a default flag spelled out is the same request.
    const reordered = { ...body, roster: body.roster.map((row) => ({ earlyPayoutElected: false, ...Object.fromEntries(Object.entries(row).reverse()) })) };
    const same = await createSplit(app, world.sme.apiKey, Object.fromEntries(Object.entries(reordered).reverse()));
    expect(same.status).toBe(200);
    expect(same.body).toEqual(first.body);

    // The key names one request: the same key with another roster or total is 409, nothing replayed or written (Stripe's behaviour).
    for (const changedBody of [
      { ...body, roster: [subVendorRow(world.plainVendor, '1')] },
      { ...body, totalAmountCents: String(BigInt(first.body.data.totalAmountCents) + 1n) },
    ]) {
      const changed = await createSplit(app, world.sme.apiKey, changedBody);
      expect(changed.status).toBe(409);
      expect(changed.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', details: [{ field: 'clientIdempotencyKey' }] });
      expect(changed.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await app.eventCount()).toBe(before);
    expect(await splitEventTypes(app, first.body.data.id)).toEqual(['split.created']);
  });

  it('scopes the key to the (SME, enterprise, AP contact) triple', async () => {
    const key = newIdempotencyKey('shared');
    const first = await createdSplit(app, world.sme.apiKey, splitBody(world, { clientIdempotencyKey: key }));

    const otherContact = await createBusinessProfile(app, world.enterprise.sessionToken, 'Globex AP (Europe)');
    const second = await createSplit(app, world.sme.apiKey, splitBody(world, { clientIdempotencyKey: key, apContactBusinessProfileId: otherContact.id }));
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.id);
    expect(second.body.data.apContactBusinessProfileId).toBe(otherContact.id);

    const otherSme = await createSme(app, 'Second SME');
    const vendor = await createSubVendor(app, otherSme.apiKey, { email: uniqueEmail('v'), fullName: 'Val Vendor' });
    const third = await createSplit(app, otherSme.apiKey, splitBody(world, { clientIdempotencyKey: key, roster: [subVendorRow(vendor, '100')] }));
    expect(third.status).toBe(201);
    expect(new Set([first.id, second.body.data.id, third.body.data.id]).size).toBe(3);
  });

  it('50 concurrent identical creates: exactly one 201, 49 replays of the same Split, one split.created', async () => {
    const body = splitBody(world, { clientIdempotencyKey: newIdempotencyKey('concurrent') });
    const responses = await Promise.all(Array.from({ length: 50 }, () => createSplit(app, world.sme.apiKey, body)));
    const summary = responses.map((r) => `${r.status}${r.headers.get('idempotent-replayed') === 'true' ? ' replayed' : ''}${r.status >= 300 ? ` ${r.text}` : ''}`);
    const counts = summary.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
    expect(counts).toEqual({ '201': 1, '200 replayed': 49 });
    const created = responses.find((r) => r.status === 201)!.body.data;
    expectSplitKeys(created);
    for (const response of responses) expect(response.body).toEqual({ data: created });
    expect(await splitEventTypes(app, created.id)).toEqual(['split.created']);
  });

  it('50 concurrent identical creates with a brand-new email row provision that contractor once', async () => {
    const email = uniqueEmail('concurrent-new');
    const body = splitBody(world, { clientIdempotencyKey: newIdempotencyKey('concurrent-email'), roster: [emailRow(email, '2500', { fullName: 'Cory Concurrent' })] });
    const responses = await Promise.all(Array.from({ length: 50 }, () => createSplit(app, world.sme.apiKey, body)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    const ids = new Set(responses.map((r) => r.body?.data?.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(await splitEventTypes(app, id)).toEqual(['split.created']);
    expect((await outbox(app)).filter((m) => m.to === email)).toHaveLength(1);
    expect((await listSubVendors(app, world.sme.apiKey)).filter((v) => v.email === email)).toHaveLength(1);
  });
});

// ================================================================================================
// Listing (spec 4.8, 8; DESIGN 4, 6)
// ================================================================================================

describe('Split lists', () => {
  let app: TestApp;
  let world: SplitWorld;
  let created: any[];
  let otherSmeSplit: any;
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
    created = [];
    for (let i = 0; i < 25; i++) {
      created.push(await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [subVendorRow(world.plainVendor, String(1000 + i))] })));
    }
    const otherSme = await createSme(app, 'Listing Rival');
    const vendor = await createSubVendor(app, otherSme.apiKey, { email: uniqueEmail('rival-vendor'), fullName: 'Rita Rival' });
    otherSmeSplit = await createdSplit(app, otherSme.apiKey, splitBody(world, { roster: [subVendorRow(vendor, '777')] }));
  });
  afterAll(async () => {
    await app.close();
  });

  const list = (query = '', token = world.sme.apiKey) => app.request('GET', `${SPLITS}${query}`, { token });
  const newestFirst = () => [...created].sort((a, b) => (a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? 1 : -1));

  it('pages with defaults page 1, limit 20, newest first, each item in the Split shape', async () => {
    const page1 = await list();
    expect(page1.status).toBe(200);
    expect(Object.keys(page1.body).sort()).toEqual(['data', 'meta']);
    expect(page1.body.meta).toEqual({ page: 1, limit: 20, total: 25, totalPages: 2 });
    expect(page1.body.data).toHaveLength(20);
    const page2 = await list('?page=2');
    expect(page2.body.meta).toEqual({ page: 2, limit: 20, total: 25, totalPages: 2 });
    expect(page2.body.data).toHaveLength(5);

    const all = [...page1.body.data, ...page2.body.data];
    for (const item of all) expectSplitKeys(item);
    expect(new Set(all.map((s) => s.id))).toEqual(new Set(created.map((s) => s.id)));
    const times = all.map((s) => s.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // Every item is exactly the Split as created.
    const byId = new Map(created.map((s) => [s.id, s]));
    for (const item of all) expect(item).toEqual(byId.get(item.id));
    // Newest first: the first item is (one of) the last created, the last item the first created.
    expect(all[0].createdAt).toBe(newestFirst()[0].createdAt);
    expect(all[24].createdAt).toBe(created[0].createdAt);

    expect((await list('?page=3')).body).toEqual({ data: [], meta: { page: 3, limit: 20, total: 25, totalPages: 2 } });
  });

  it('honours limit up to 100', async () => {
    const ten = await list('?limit=10&page=3');
    expect(ten.body.meta).toEqual({ page: 3, limit: 10, total: 25, totalPages: 3 });
    expect(ten.body.data).toHaveLength(5);
    const hundred = await list('?limit=100');
    expect(hundred.body.meta).toEqual({ page: 1, limit: 100, total: 25, totalPages: 1 });
    expect(hundred.body.data).toHaveLength(25);
  });

  it.each(['?limit=101', '?limit=0', '?page=0', '?limit=abc', '?page=-1', '?page=1.5', '?limit=', '?sort=id'])('refuses %s with 400 VALIDATION_FAILED', async (query) => {
    expectError(await list(query), 400, 'VALIDATION_FAILED');
  });

  it("lists only the caller's Splits", async () => {
    const all = (await list('?limit=100')).body.data;
    expect(all.map((s: { id: string }) => s.id)).not.toContain(otherSmeSplit.id);
    const fresh = await createSme(app, 'Nothing Yet');
    expect((await list('', fresh.apiKey)).body).toEqual({ data: [], meta: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it('lists the Splits billed to the enterprise as incoming (session), from every SME', async () => {
    const incoming = await app.request('GET', `${ENTERPRISE_SPLITS}/incoming?limit=100`, { token: world.enterprise.sessionToken });
    expect(incoming.status).toBe(200);
    expect(incoming.body.meta).toEqual({ page: 1, limit: 100, total: 26, totalPages: 1 });
    for (const item of incoming.body.data) expectSplitKeys(item);
    expect(new Set(incoming.body.data.map((s: { id: string }) => s.id))).toEqual(new Set([...created, otherSmeSplit].map((s) => s.id)));
    const times = incoming.body.data.map((s: { createdAt: string }) => s.createdAt);
    expect(times).toEqual([...times].sort().reverse());

    const paged = await app.request('GET', `${ENTERPRISE_SPLITS}/incoming?page=2`, { token: world.enterprise.sessionToken });
    expect(paged.body.meta).toEqual({ page: 2, limit: 20, total: 26, totalPages: 2 });
    expect(paged.body.data).toHaveLength(6);

    // The SME is not billed anything.
    const smeIncoming = await app.request('GET', `${ENTERPRISE_SPLITS}/incoming`, { token: world.sme.sessionToken });
    expect(smeIncoming.body).toEqual({ data: [], meta: { page: 1, limit: 20, total: 0, totalPages: 0 } });
    expectError(await app.request('GET', `${ENTERPRISE_SPLITS}/incoming?limit=101`, { token: world.enterprise.sessionToken }), 400, 'VALIDATION_FAILED');
  });
});

// ================================================================================================
// Access: cross-company 404 and credentials (spec 5, 7; DESIGN 4)
// ================================================================================================

describe('Split access control', () => {
  let app: TestApp;
  let world: SplitWorld;
  let split: any;
  let stranger: { companyId: string; sessionToken: string; apiKey: string };
  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
    split = await createdSplit(app, world.sme.apiKey, splitBody(world));
    stranger = await createSme(app, 'Stranger');
  });
  afterAll(async () => {
    await app.close();
  });

  it("answers 404 SPLIT_NOT_FOUND (not 403) for another company's Split and for unknown ids, appending nothing", async () => {
    const enterpriseKey = await issueApiKey(app, world.enterprise.sessionToken);
    const before = await app.eventCount();
    const revision = { roster: [subVendorRow(world.plainVendor, '100')] };
    expectError(await app.request('GET', `${SPLITS}/${split.id}`, { token: stranger.apiKey }), 404, 'SPLIT_NOT_FOUND', []);
    expectError(await app.request('PUT', `${SPLITS}/${split.id}/roster`, { token: stranger.apiKey, body: revision }), 404, 'SPLIT_NOT_FOUND', []);
    expectError(await app.request('POST', `${SPLITS}/${split.id}/cancel`, { token: stranger.apiKey }), 404, 'SPLIT_NOT_FOUND', []);
    // The enterprise is billed, but it did not create the Split: the SME-side calls do not show it either.
    expectError(await app.request('GET', `${SPLITS}/${split.id}`, { token: enterpriseKey }), 404, 'SPLIT_NOT_FOUND', []);
    expectError(await app.request('POST', `${SPLITS}/${split.id}/cancel`, { token: enterpriseKey }), 404, 'SPLIT_NOT_FOUND', []);
    // Approval by anyone but the enterprise: a stranger, or the SME itself.
    for (const token of [stranger.sessionToken, world.sme.sessionToken]) {
      expectError(await app.request('POST', `${ENTERPRISE_SPLITS}/${split.id}/approve`, { token, body: { revision: 1 } }), 404, 'SPLIT_NOT_FOUND', []);
      expectError(await app.request('POST', `${ENTERPRISE_SPLITS}/${split.id}/reject`, { token, body: { revision: 1, reason: 'no' } }), 404, 'SPLIT_NOT_FOUND', []);
    }
    // Unknown ids.
    for (const id of ['spl_00000000000000000000000000', 'nope']) {
      expectError(await app.request('GET', `${SPLITS}/${id}`, { token: world.sme.apiKey }), 404, 'SPLIT_NOT_FOUND', []);
      expectError(await app.request('PUT', `${SPLITS}/${id}/roster`, { token: world.sme.apiKey, body: revision }), 404, 'SPLIT_NOT_FOUND', []);
      expectError(await app.request('POST', `${SPLITS}/${id}/cancel`, { token: world.sme.apiKey }), 404, 'SPLIT_NOT_FOUND', []);
      expectError(await app.request('POST', `${ENTERPRISE_SPLITS}/${id}/approve`, { token: world.enterprise.sessionToken, body: { revision: 1 } }), 404, 'SPLIT_NOT_FOUND', []);
      expectError(await app.request('POST', `${ENTERPRISE_SPLITS}/${id}/reject`, { token: world.enterprise.sessionToken, body: { revision: 1 } }), 404, 'SPLIT_NOT_FOUND', []);
    }
    expect(await app.eventCount()).toBe(before);
    const unchanged = await app.request('GET', `${SPLITS}/${split.id}`, { token: world.sme.apiKey });
    expect(unchanged.body.data).toEqual(split);
  });

  const smeCalls = (id: () => string): [string, string, unknown][] => [
    ['POST', SPLITS, undefined],
    ['GET', SPLITS, undefined],
    ['GET', `${SPLITS}/${id()}`, undefined],
    ['PUT', `${SPLITS}/${id()}/roster`, { roster: [{ subVendorId: 'sv_x', amountCents: '1' }] }],
    ['POST', `${SPLITS}/${id()}/cancel`, undefined],
    ['POST', '/api/commerce/integration/sub-vendors', { email: 'x@example.test' }],
    ['GET', '/api/commerce/integration/sub-vendors', undefined],
  ];
  const sessionCalls = (id: () => string): [string, string, unknown][] => [
    ['GET', `${ENTERPRISE_SPLITS}/incoming`, undefined],
    ['POST', `${ENTERPRISE_SPLITS}/${id()}/approve`, { revision: 1 }],
    ['POST', `${ENTERPRISE_SPLITS}/${id()}/reject`, { revision: 1, reason: 'no' }],
    ['PUT', `/api/commerce/split-settings/sme/${world.sme.companyId}`, { autoAccept: true, coverFees: true }],
    ['POST', '/api/commerce/business-profiles', { displayName: 'AP', email: 'ap@example.test' }],
    ['GET', '/api/commerce/business-profiles', undefined],
    ['GET', '/api/commerce/company', undefined],
    ['PATCH', '/api/commerce/company', { netTermsDays: 10 }],
  ];

  it('API-key routes: 403 MISSING_SCOPE without split:write, 403 CREDENTIAL_NOT_ALLOWED for a session (but on create, revise, cancel), 401 without a credential', async () => {
    const checkoutOnly = await issueApiKey(app, world.sme.sessionToken, ['checkout:write', 'payout:write']);
    const before = await app.eventCount();
    for (const [method, path, payload] of smeCalls(() => split.id)) {
      const body = method === 'POST' && path === SPLITS ? splitBody(world) : payload;
      expectError(await app.request(method, path, { token: checkoutOnly, body }), 403, 'MISSING_SCOPE', []);
      // Create, revise and cancel take the SME's session too (the dashboard's Split form, issue 29).
      const sessionToo = (method === 'POST' && path === SPLITS) || path.endsWith('/roster') || path.endsWith('/cancel');
      if (!sessionToo) expectError(await app.request(method, path, { token: world.sme.sessionToken, body }), 403, 'CREDENTIAL_NOT_ALLOWED', []);
      expectError(await app.request(method, path, { body }), 401, 'UNAUTHENTICATED', []);
      expectError(await app.request(method, path, { token: 'sk_unknown', body }), 401, 'UNAUTHENTICATED', []);
    }
    expect(await app.eventCount()).toBe(before);
  });

  it('session routes (approve, reject, incoming, settings, profiles, company): 403 CREDENTIAL_NOT_ALLOWED for an API key, 401 without a credential', async () => {
    const enterpriseKey = await issueApiKey(app, world.enterprise.sessionToken);
    const before = await app.eventCount();
    for (const [method, path, body] of sessionCalls(() => split.id)) {
      expectError(await app.request(method, path, { token: enterpriseKey, body }), 403, 'CREDENTIAL_NOT_ALLOWED', []);
      expectError(await app.request(method, path, { body }), 401, 'UNAUTHENTICATED', []);
      expectError(await app.request(method, path, { token: 'sess_unknown', body }), 401, 'UNAUTHENTICATED', []);
    }
    expect(await app.eventCount()).toBe(before);
    expect((await app.request('GET', `${SPLITS}/${split.id}`, { token: world.sme.apiKey })).body.data.status).toBe('PENDING_APPROVAL');
  });

  it('a revoked API key is no credential at all (401)', async () => {
    const key = await issueApiKey(app, world.sme.sessionToken);
    expect((await app.request('GET', `${SPLITS}/${split.id}`, { token: key })).status).toBe(200);
    const keys = dataOf(await app.request('GET', '/api/commerce/api-keys', { token: world.sme.sessionToken }), 200) as { id: string; lastFour: string }[];
    const id = keys.find((k) => k.lastFour === key.slice(-4))!.id;
    expect((await app.request('DELETE', `/api/commerce/api-keys/${id}`, { token: world.sme.sessionToken })).status).toBe(200);
    expectError(await app.request('GET', `${SPLITS}/${split.id}`, { token: key }), 401, 'UNAUTHENTICATED', []);
    expectError(await createSplit(app, key, splitBody(world)), 401, 'UNAUTHENTICATED', []);
  });

  it('sandbox helpers are public; bad creator input is a 400 and a second creator profile for one account a 409', async () => {
    const creator = await createCreator(app, { fullName: 'Sam Sandbox' });
    expect(creator).toMatchObject({ userId: expect.stringMatching(/^usr_/), creatorProfileId: expect.stringMatching(/^crp_/), paymentProfileId: expect.stringMatching(/^cpp_/) });
    expectError(await app.request('POST', '/api/sandbox/creators', { body: { fullName: 'Again', email: creator.email } }), 409, 'CREATOR_ALREADY_EXISTS');
    expectError(await app.request('POST', '/api/sandbox/creators', { body: { email: 'x@example.test' } }), 400, 'VALIDATION_FAILED');
    expect((await app.request('GET', '/api/sandbox/outbox')).status).toBe(200);
  });
});
