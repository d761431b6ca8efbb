import { signup, TestApp, TestResponse } from './test-app';

/**
 * Reusable setup for the Split API e2e suites: companies, credentials, parties and request bodies,
 * all made over real HTTP so every fixture goes through the same guards and validation as a client.
 */

// ---- spec 2.3: the exact field lists ------------------------------------------------------------

export const SPLIT_FIELDS = [
  'id',
  'revision',
  'smeCompanyId',
  'smeCompanyName',
  'enterpriseCompanyId',
  'enterpriseCompanyName',
  'enterpriseNetTermsDays',
  'apContactBusinessProfileId',
  'legAPayoutId',
  'totalAmountCents',
  'marginAmountCents',
  'marginStatus',
  'marginHoldStartedAt',
  'marginReleasedAt',
  'feeBufferAmountCents',
  'enterpriseCoversFee',
  'enterpriseFeeAmountCents',
  'currency',
  'status',
  'distributions',
  'approvals',
  'approvalsRequired',
  'createdAt',
  'updatedAt',
  // Issue 27: the invoice billed at funding, how far it is paid, why a pending Split waits.
  'invoiceId',
  'collectionStatus',
  'approvalBlockedReason',
  // issue 29 (the dashboard tells Splits apart and says when contractors get paid)
  'reference',
  'rejectionReason',
  'fundedAt',
  'paydayAt',
].sort();

export const DISTRIBUTION_FIELDS = [
  'id',
  'contractorPaymentProfileId',
  'subVendorId',
  'contractorDisplayName',
  'creatorProfileId',
  'amountCents',
  'earlyPayoutElected',
  'autoWithdrawElected',
  'businessCoversFee',
  'status',
  'legBTransferPayoutId',
  'legBWithdrawalPayoutId',
  'feeAmountCents',
  'netAmountCents',
  'failureReason',
  // Issue 26.
  'reversedAmountCents',
  'finalFailureAt',
].sort();

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const SPLIT_ID = /^spl_[0-9a-z]{26}$/;
export const DISTRIBUTION_ID = /^dst_[0-9a-z]{26}$/;
export const PAYOUT_ID = /^po_[0-9a-z]{26}$/;
export const SUB_VENDOR_ID = /^sv_[0-9a-z]{26}$/;

/** Spec 2.3 key sets, checked on a Split and on every one of its distributions. */
export function expectSplitKeys(split: Record<string, unknown>): void {
  expect(Object.keys(split).sort()).toEqual(SPLIT_FIELDS);
  for (const row of split.distributions as Record<string, unknown>[]) expect(Object.keys(row).sort()).toEqual(DISTRIBUTION_FIELDS);
}

// ---- parties ------------------------------------------------------------------------------------

export interface Company {
  name: string;
  companyId: string;
  userId: string;
  sessionToken: string;
  email: string;
}

export interface Sme extends Company {
  /** API key with split:write. */
  apiKey: string;
}

export interface Enterprise extends Company {
  /** Business profile (AP contact) of the enterprise. */
  apContactId: string;
}

export interface Creator {
  userId: string;
  creatorProfileId: string;
  paymentProfileId: string;
  fullName: string;
  email: string;
  walletEmail: string | null;
}

export interface SubVendor {
  id: string;
  smeCompanyId: string;
  email: string;
  fullName: string | null;
  walletEmail: string | null;
  hasWallet: boolean;
  kind: 'PERSON' | 'BUSINESS';
  userId: string | null;
  creatorProfileId: string | null;
  createdAt: string;
}

export interface SplitWorld {
  sme: Sme;
  enterprise: Enterprise;
  /** Active sandbox creator with a verified wallet. */
  creator: Creator;
  /** On the SME's roster, with a wallet email on file. */
  walletVendor: SubVendor;
  /** On the SME's roster, without a wallet email. */
  plainVendor: SubVendor;
}

export const uniqueEmail = (label: string) => `${label.toLowerCase().replace(/[^a-z0-9]/g, '')}-${Math.random().toString(36).slice(2, 10)}@example.test`;

/** Asserts the status and answers the `data` portion; the failure message carries the whole response. */
export function dataOf(response: TestResponse, status: number): any {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text}`);
  return response.body.data;
}

export async function issueApiKey(app: TestApp, sessionToken: string, scopes: string[] = ['split:write'], name = 'server'): Promise<string> {
  const issued = await app.request('POST', '/api/commerce/api-keys', { token: sessionToken, body: { name, scopes } });
  return dataOf(issued, 201).key;
}

export async function createCompany(app: TestApp, name: string): Promise<Company> {
  const company = await signup(app, name);
  return { name, ...company };
}

export async function createSme(app: TestApp, name = 'Acme Staffing'): Promise<Sme> {
  const company = await createCompany(app, name);
  return { ...company, apiKey: await issueApiKey(app, company.sessionToken) };
}

export async function createBusinessProfile(
  app: TestApp,
  sessionToken: string,
  displayName: string,
  email = uniqueEmail('ap'),
): Promise<{ id: string; companyId: string; displayName: string; email: string; createdAt: string }> {
  return dataOf(await app.request('POST', '/api/commerce/business-profiles', { token: sessionToken, body: { displayName, email } }), 201);
}

export async function createEnterprise(app: TestApp, name = 'Globex'): Promise<Enterprise> {
  const company = await createCompany(app, name);
  const apContact = await createBusinessProfile(app, company.sessionToken, `${name} Accounts Payable`);
  return { ...company, apContactId: apContact.id };
}

export async function createCreator(
  app: TestApp,
  options: { fullName?: string; email?: string; walletEmail?: string | null; walletVerified?: boolean; active?: boolean } = {},
): Promise<Creator> {
  const fullName = options.fullName ?? 'Casey Creator';
  const email = options.email ?? uniqueEmail('creator');
  const walletEmail = options.walletEmail === undefined ? uniqueEmail('wallet') : options.walletEmail;
  const body: Record<string, unknown> = { fullName, email };
  if (walletEmail !== null) body.walletEmail = walletEmail;
  if (options.walletVerified !== undefined) body.walletVerified = options.walletVerified;
  if (options.active !== undefined) body.active = options.active;
  const created = dataOf(await app.request('POST', '/api/sandbox/creators', { body }), 201);
  return { ...created, fullName, email, walletEmail };
}

export async function createSubVendor(
  app: TestApp,
  apiKey: string,
  body: { email: string; fullName?: string; walletEmail?: string; kind?: 'PERSON' | 'BUSINESS' },
): Promise<SubVendor> {
  return dataOf(await app.request('POST', '/api/commerce/integration/sub-vendors', { token: apiKey, body }), 201);
}

/** An SME with a split:write key, an enterprise with an AP contact, a creator with a wallet and two sub-vendors. */
export async function setupSplitWorld(app: TestApp, names: { sme?: string; enterprise?: string } = {}): Promise<SplitWorld> {
  const [sme, enterprise, creator] = await Promise.all([
    createSme(app, names.sme ?? 'Acme Staffing'),
    createEnterprise(app, names.enterprise ?? 'Globex'),
    createCreator(app, { fullName: 'Casey Creator' }),
  ]);
  const walletVendor = await createSubVendor(app, sme.apiKey, { email: uniqueEmail('vendor-wallet'), fullName: 'Wanda Wallet', walletEmail: uniqueEmail('wanda-wallet') });
  const plainVendor = await createSubVendor(app, sme.apiKey, { email: uniqueEmail('vendor-plain'), fullName: 'Pat Plain' });
  return { sme, enterprise, creator, walletVendor, plainVendor };
}

// ---- request bodies -----------------------------------------------------------------------------

export interface RosterRow {
  amountCents: string;
  earlyPayoutElected?: boolean;
  autoWithdrawElected?: boolean;
  businessCoversFee?: boolean;
  contractorPaymentProfileId?: string;
  subVendorId?: string;
  email?: string;
  fullName?: string;
}

export interface SplitBody {
  enterpriseCompanyId: string;
  apContactBusinessProfileId: string;
  clientIdempotencyKey: string;
  totalAmountCents?: string;
  roster: RosterRow[];
}

let keyCounter = 0;
export const newIdempotencyKey = (label = 'invoice') => `${label}-${Date.now().toString(36)}-${++keyCounter}-${Math.random().toString(36).slice(2, 8)}`;

export const creatorRow = (creator: Creator, amountCents: string, flags: Partial<RosterRow> = {}): RosterRow => ({
  contractorPaymentProfileId: creator.paymentProfileId,
  amountCents,
  ...flags,
});
export const subVendorRow = (subVendor: SubVendor, amountCents: string, flags: Partial<RosterRow> = {}): RosterRow => ({ subVendorId: subVendor.id, amountCents, ...flags });
export const emailRow = (email: string, amountCents: string, flags: Partial<RosterRow> = {}): RosterRow => ({ email, amountCents, ...flags });

/**
 * A valid create body for the world: by default two rows (the creator 60000 and the walletful
 * sub-vendor 40000, roster sum 100000), no total, a fresh idempotency key. Overrides replace fields.
 */
export function splitBody(world: Pick<SplitWorld, 'enterprise' | 'creator' | 'walletVendor'>, overrides: Partial<SplitBody> = {}): SplitBody {
  return {
    enterpriseCompanyId: world.enterprise.companyId,
    apContactBusinessProfileId: world.enterprise.apContactId,
    clientIdempotencyKey: newIdempotencyKey(),
    roster: [creatorRow(world.creator, '60000'), subVendorRow(world.walletVendor, '40000')],
    ...overrides,
  };
}

export async function createSplit(app: TestApp, apiKey: string, body: unknown): Promise<TestResponse> {
  return app.request('POST', '/api/commerce/integration/splits', { token: apiKey, body });
}

/** Creates and answers the Split (asserting 201). */
export async function createdSplit(app: TestApp, apiKey: string, body: unknown): Promise<any> {
  return dataOf(await createSplit(app, apiKey, body), 201);
}

// ---- expected response shapes -------------------------------------------------------------------

/** The distribution the API should answer for a row, before any transfer (spec 2.3). */
export function expectedDistribution(
  contractor: { contractorPaymentProfileId?: string | null; subVendorId?: string | null; contractorDisplayName: string; creatorProfileId: string | null },
  row: Pick<RosterRow, 'amountCents' | 'earlyPayoutElected' | 'autoWithdrawElected' | 'businessCoversFee'>,
) {
  return {
    id: expect.stringMatching(DISTRIBUTION_ID),
    contractorPaymentProfileId: contractor.contractorPaymentProfileId ?? null,
    subVendorId: contractor.subVendorId ?? null,
    contractorDisplayName: contractor.contractorDisplayName,
    creatorProfileId: contractor.creatorProfileId,
    amountCents: row.amountCents,
    earlyPayoutElected: row.earlyPayoutElected ?? false,
    autoWithdrawElected: row.autoWithdrawElected ?? false,
    businessCoversFee: row.businessCoversFee ?? false,
    status: 'PENDING',
    legBTransferPayoutId: null,
    legBWithdrawalPayoutId: null,
    feeAmountCents: null,
    netAmountCents: null,
    failureReason: null,
    reversedAmountCents: '0',
    finalFailureAt: null,
  };
}

export const creatorDistribution = (creator: Creator, row: RosterRow) =>
  expectedDistribution({ contractorPaymentProfileId: creator.paymentProfileId, contractorDisplayName: creator.fullName, creatorProfileId: creator.creatorProfileId }, row);

export const subVendorDistribution = (subVendor: Pick<SubVendor, 'id' | 'fullName' | 'email' | 'creatorProfileId'>, row: RosterRow) =>
  expectedDistribution({ subVendorId: subVendor.id, contractorDisplayName: subVendor.fullName ?? subVendor.email, creatorProfileId: subVendor.creatorProfileId }, row);

/** The whole Split as created from `body`, PENDING_APPROVAL with no margin unless overridden. */
export function expectedSplit(world: Pick<SplitWorld, 'sme' | 'enterprise'>, body: SplitBody, distributions: unknown[], overrides: Record<string, unknown> = {}) {
  const sum = body.roster.reduce((total, row) => total + BigInt(row.amountCents), 0n);
  const total = body.totalAmountCents === undefined ? sum : BigInt(body.totalAmountCents);
  const margin = total - sum;
  return {
    id: expect.stringMatching(SPLIT_ID),
    revision: 1,
    smeCompanyId: world.sme.companyId,
    smeCompanyName: world.sme.name,
    enterpriseCompanyId: world.enterprise.companyId,
    enterpriseCompanyName: world.enterprise.name,
    enterpriseNetTermsDays: 30,
    apContactBusinessProfileId: world.enterprise.apContactId,
    legAPayoutId: expect.stringMatching(PAYOUT_ID),
    totalAmountCents: total.toString(),
    marginAmountCents: margin.toString(),
    marginStatus: margin === 0n ? 'NONE' : 'PENDING',
    marginHoldStartedAt: null,
    marginReleasedAt: null,
    feeBufferAmountCents: '0',
    enterpriseCoversFee: false,
    enterpriseFeeAmountCents: '0',
    currency: 'USD',
    status: 'PENDING_APPROVAL',
    distributions,
    approvals: expect.any(Array),
    approvalsRequired: 1,
    createdAt: expect.stringMatching(ISO_TIMESTAMP),
    updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    invoiceId: null,
    collectionStatus: null,
    approvalBlockedReason: null,
    reference: body.clientIdempotencyKey,
    rejectionReason: null,
    ...fundedDates(overrides.status),
    ...overrides,
  };
}

/** fundedAt and paydayAt (issue 29): set once the Split funded. */
const fundedDates = (status: unknown) =>
  ['FUNDED', 'SETTLING', 'SETTLED'].includes(String(status))
    ? { fundedAt: expect.stringMatching(ISO_TIMESTAMP), paydayAt: expect.stringMatching(ISO_TIMESTAMP) }
    : { fundedAt: null, paydayAt: null };

/** Round half up of amount * bps / 10000, as the service computes fees. */
export function feeOf(amountCents: string, bps: number): string {
  return ((BigInt(amountCents) * BigInt(bps) + 5000n) / 10000n).toString();
}

// ---- log and outbox -----------------------------------------------------------------------------

export async function splitEventTypes(app: TestApp, splitId: string): Promise<string[]> {
  return (await app.platform.events.readStream(`split-${splitId}`)).map((event) => event.type);
}

export async function splitEvents(app: TestApp, splitId: string) {
  return app.platform.events.readStream(`split-${splitId}`);
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  link: string;
  sentAt: string;
}

export async function outbox(app: TestApp): Promise<OutboxMessage[]> {
  return dataOf(await app.request('GET', '/api/sandbox/outbox'), 200);
}

export async function listSubVendors(app: TestApp, apiKey: string): Promise<SubVendor[]> {
  return dataOf(await app.request('GET', '/api/commerce/integration/sub-vendors?limit=100', { token: apiKey }), 200);
}

/** The error envelope of DESIGN section 4. */
export function errorEnvelope(code: string, details: unknown = expect.any(Array)) {
  return { error: { code, message: expect.any(String), details } };
}
