import { given } from '../../../test/support/given-when-then';
import { fold } from '../../platform/domain/decider';
import { CreateSplit, ResolvedContractor, RosterRowInput, SplitCommand } from './split.commands';
import { splitDecider } from './split.decider';
import { DistributionData, SplitEvent } from './split.events';

const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const SME = 'co_sme';
const ENT = 'co_ent';
const OTHER = 'co_other';
const FEE_BPS = 100;

const creator = (n = 1, walletEmail: string | null = null): ResolvedContractor => ({
  kind: 'creator',
  paymentProfileId: `cpp_${n}`,
  creatorProfileId: `cr_${n}`,
  displayName: `Creator ${n}`,
  email: `creator${n}@example.com`,
  walletEmail,
});
const subVendor = (n = 1, walletEmail: string | null = null): ResolvedContractor => ({
  kind: 'sub_vendor',
  subVendorId: `sv_${n}`,
  creatorProfileId: null,
  displayName: `Vendor ${n}`,
  email: `vendor${n}@example.com`,
  walletEmail,
});

function row(amountCents = '1000', overrides: Partial<RosterRowInput> = {}, n = 1): RosterRowInput {
  return {
    distributionId: `dst_${n}`,
    contractor: creator(n),
    amountCents,
    earlyPayoutElected: false,
    autoWithdrawElected: false,
    businessCoversFee: false,
    ...overrides,
  };
}
const rows = (count: number, amountCents = '100') => Array.from({ length: count }, (_, i) => row(amountCents, {}, i + 1));

/** The distribution the decider records for row() with the same arguments. */
function dist(amountCents = '1000', overrides: Partial<DistributionData> = {}, n = 1): DistributionData {
  return {
    id: `dst_${n}`,
    contractorPaymentProfileId: `cpp_${n}`,
    subVendorId: null,
    contractorDisplayName: `Creator ${n}`,
    creatorProfileId: `cr_${n}`,
    walletEmail: null,
    contractorEmail: `creator${n}@example.com`,
    amountCents,
    earlyPayoutElected: false,
    autoWithdrawElected: false,
    businessCoversFee: false,
    ...overrides,
  };
}

function create(
  roster: RosterRowInput[] = [row()],
  totalAmountCents: string | null = null,
  settings: CreateSplit['data']['settings'] = { autoAccept: false, coverFees: false },
): SplitCommand {
  return {
    type: 'CreateSplit',
    data: {
      splitId: 'spl_1',
      legAPayoutId: 'po_a',
      smeCompanyId: SME,
      smeCompanyName: 'SME Ltd',
      enterprise: { companyId: ENT, name: 'Enterprise Inc', netTermsDays: 30 },
      apContactBusinessProfileId: 'bp_ap',
      clientIdempotencyKey: 'idem-1',
      requestHash: 'hash-1',
      totalAmountCents,
      currency: 'USD',
      rows: roster,
      settings,
      legAFeeBps: FEE_BPS,
    },
    metadata: { now, actor: 'usr_sme' },
  };
}

type CreatedData = Extract<SplitEvent, { type: 'split.created' }>['data'];
function created(overrides: Partial<CreatedData> = {}): SplitEvent {
  return {
    type: 'split.created',
    data: {
      splitId: 'spl_1',
      smeCompanyId: SME,
      smeCompanyName: 'SME Ltd',
      enterpriseCompanyId: ENT,
      enterpriseCompanyName: 'Enterprise Inc',
      enterpriseNetTermsDays: 30,
      apContactBusinessProfileId: 'bp_ap',
      clientIdempotencyKey: 'idem-1',
      requestHash: 'hash-1',
      legAPayoutId: 'po_a',
      currency: 'USD',
      totalAmountCents: '1000',
      marginAmountCents: '0',
      enterpriseCoversFee: false,
      enterpriseFeeAmountCents: '0',
      distributions: [dist()],
      smeCoveredFeesDrawn: true,
      createdBy: 'usr_sme',
      createdAt: now,
      ...overrides,
    },
  };
}

const approved = (autoAccepted = false): SplitEvent => ({
  type: 'split.leg_a.approved',
  data: { splitId: 'spl_1', legAPayoutId: 'po_a', approvedBy: autoAccepted ? 'auto-accept' : 'usr_ent', autoAccepted, approvedAt: autoAccepted ? now : later },
});
const rejected: SplitEvent = {
  type: 'split.leg_a.rejected',
  data: { splitId: 'spl_1', legAPayoutId: 'po_a', rejectedBy: 'usr_ent', reason: 'wrong amounts', rejectedAt: later },
};
const cancelled: SplitEvent = { type: 'split.cancelled', data: { splitId: 'spl_1', cancelledBy: 'usr_sme', cancelledAt: later } };

const revise = (roster: RosterRowInput[] = [row('2000')], totalAmountCents: string | null = null, smeCompanyId = SME): SplitCommand => ({
  type: 'ReviseRoster',
  data: { splitId: 'spl_1', smeCompanyId, totalAmountCents, rows: roster, legAFeeBps: FEE_BPS },
  metadata: { now: later, actor: 'usr_sme' },
});
const approve = (enterpriseCompanyId = ENT, expectedRevision = 1): SplitCommand => ({
  type: 'ApproveSplit',
  data: { splitId: 'spl_1', enterpriseCompanyId, expectedRevision },
  metadata: { now: later, actor: 'usr_ent' },
});
const reject = (enterpriseCompanyId = ENT, expectedRevision = 1): SplitCommand => ({
  type: 'RejectSplit',
  data: { splitId: 'spl_1', enterpriseCompanyId, expectedRevision, reason: 'wrong amounts' },
  metadata: { now: later, actor: 'usr_ent' },
});
const cancel = (smeCompanyId = SME): SplitCommand => ({ type: 'CancelSplit', data: { splitId: 'spl_1', smeCompanyId }, metadata: { now: later, actor: 'usr_sme' } });

const revised = (overrides: Partial<Extract<SplitEvent, { type: 'split.roster.revised' }>['data']> = {}): SplitEvent => ({
  type: 'split.roster.revised',
  data: {
    splitId: 'spl_1',
    totalAmountCents: '2000',
    marginAmountCents: '0',
    enterpriseFeeAmountCents: '0',
    distributions: [dist('2000')],
    smeCoveredFeesDrawn: true,
    revisedBy: 'usr_sme',
    revisedAt: later,
    ...overrides,
  },
});

/** The first event of a successful create, for asserting on a few fields. */
function createdData(events: SplitEvent[]): CreatedData {
  const [event] = events;
  if (event.type !== 'split.created') throw new Error(`unexpected ${event.type}`);
  return event.data;
}

describe('split decider', () => {
  describe('CreateSplit', () => {
    it('records a pending Split billing exactly the roster sum when total is omitted', () =>
      given(splitDecider)
        .when(create([row('1000')]))
        .then([created()]));

    it('is idempotent: creating an existing Split emits nothing', () => given(splitDecider, created()).when(create()).thenNothing());
    it('is idempotent even after the Split moved on', () => given(splitDecider, created(), approved()).when(create()).thenNothing());

    it('records rows in order with the resolved contractor of each kind', () =>
      given(splitDecider)
        .when(
          create([
            row('700', { earlyPayoutElected: true, businessCoversFee: true, contractor: creator(1, 'w1@wallet.test') }, 1),
            row('300', { autoWithdrawElected: true, contractor: subVendor(2, 'w2@wallet.test') }, 2),
          ]),
        )
        .then([
          created({
            distributions: [
              dist('700', { earlyPayoutElected: true, businessCoversFee: true, walletEmail: 'w1@wallet.test' }, 1),
              {
                id: 'dst_2',
                contractorPaymentProfileId: null,
                subVendorId: 'sv_2',
                contractorDisplayName: 'Vendor 2',
                creatorProfileId: null,
                walletEmail: 'w2@wallet.test',
                contractorEmail: 'vendor2@example.com',
                amountCents: '300',
                earlyPayoutElected: false,
                autoWithdrawElected: true,
                businessCoversFee: false,
              },
            ],
          }),
        ]));

    describe('roster size', () => {
      it('accepts 1 row', () =>
        given(splitDecider)
          .when(create(rows(1)))
          .then((events) => expect(createdData(events).distributions).toHaveLength(1)));
      it('accepts 50 rows', () =>
        given(splitDecider)
          .when(create(rows(50)))
          .then((events) => {
            const data = createdData(events);
            expect(data.distributions.map((d) => d.id)).toEqual(rows(50).map((r) => r.distributionId));
            expect(data.totalAmountCents).toBe('5000');
          }));
      it('refuses 0 rows', () => given(splitDecider).when(create([])).thenFails('SPLIT_ROSTER_SIZE'));
      it('refuses 51 rows', () =>
        given(splitDecider)
          .when(create(rows(51)))
          .thenFails('SPLIT_ROSTER_SIZE'));
      it('answers 400', () =>
        given(splitDecider)
          .when(create([]))
          .thenFails('SPLIT_ROSTER_SIZE', (error) => expect(error.kind).toBe('invalid')));
    });

    describe('amounts', () => {
      it('refuses a roster summing to zero', () =>
        given(splitDecider)
          .when(create([row('0'), row('0', {}, 2)]))
          .thenFails('SPLIT_ROSTER_SUM_ZERO'));
      it('checks the zero sum before the zero row', () =>
        given(splitDecider)
          .when(create([row('0')]))
          .thenFails('SPLIT_ROSTER_SUM_ZERO'));
      it('refuses a zero row among positive rows, naming it', () =>
        given(splitDecider)
          .when(create([row('100'), row('0', {}, 2), row('5', {}, 3)]))
          .thenFails('SPLIT_ROW_AMOUNT_NOT_POSITIVE', (error) => {
            expect(error.kind).toBe('invalid');
            expect(error.details).toEqual([expect.objectContaining({ field: 'roster.1.amountCents' })]);
          }));
      it('refuses an amount that is not a carried amount (over 10^15) as 400, not a crash', () =>
        given(splitDecider)
          .when(create([row('1000000000000001')], '1000000000000002'))
          .thenFails('SPLIT_AMOUNT_INVALID', (error) => expect(error.details.map((d) => d.field)).toEqual(['roster.0.amountCents', 'totalAmountCents'])));
      it('refuses a roster sum over 10^15 when it is the bill', () =>
        given(splitDecider)
          .when(create([row('1000000000000000'), row('1', {}, 2)]))
          .thenFails('SPLIT_ROSTER_SUM_TOO_LARGE'));
      it('keeps huge amounts exact (10^15)', () =>
        given(splitDecider)
          .when(create([row('999999999999999'), row('1', {}, 2)], null, { autoAccept: false, coverFees: true }))
          .then((events) => {
            const data = createdData(events);
            expect(data.totalAmountCents).toBe('1000000000000000');
            expect(data.enterpriseFeeAmountCents).toBe('10000000000000');
          }));
      it('keeps a huge margin exact at the cap', () =>
        given(splitDecider)
          .when(create([row('800000000000000')], '1000000000000000'))
          .then((events) => expect(createdData(events).marginAmountCents).toBe('200000000000000')));
    });

    describe('total and margin', () => {
      it('bills the roster sum with no margin when total equals the sum', () =>
        given(splitDecider)
          .when(create([row('1000')], '1000'))
          .then([created()]));
      it('refuses a total below the roster sum', () =>
        given(splitDecider)
          .when(create([row('1000')], '999'))
          .thenFails('SPLIT_TOTAL_BELOW_ROSTER_SUM', (error) => expect(error.kind).toBe('invalid')));
      it('accepts a margin of exactly 20%', () =>
        given(splitDecider)
          .when(create([row('800')], '1000'))
          .then([created({ totalAmountCents: '1000', marginAmountCents: '200', distributions: [dist('800')] })]));
      it('refuses a margin one cent over 20%', () =>
        // total 1001, sum 800: margin 201 > 200.2
        given(splitDecider)
          .when(create([row('800')], '1001'))
          .thenFails('SPLIT_MARGIN_CAP_EXCEEDED', (error) => expect(error.kind).toBe('invalid')));
      it('refuses 20% plus one cent of margin at the same total', () =>
        given(splitDecider)
          .when(create([row('799')], '1000'))
          .thenFails('SPLIT_MARGIN_CAP_EXCEEDED'));
      it('accepts a whole-cent margin under a fractional cap', () =>
        // total 1001 -> cap 200.2; margin 200 is fine
        given(splitDecider)
          .when(create([row('801')], '1001'))
          .then((events) => expect(createdData(events).marginAmountCents).toBe('200')));
    });

    describe('one row per contractor', () => {
      it('refuses a creator named twice, pointing at the repeat', () =>
        given(splitDecider)
          .when(create([row('500', {}, 1), row('300', {}, 2), row('200', { contractor: creator(1) }, 3)]))
          .thenFails('SPLIT_DUPLICATE_CONTRACTOR', (error) => {
            expect(error.kind).toBe('invalid');
            expect(error.details).toEqual([expect.objectContaining({ field: 'roster.2.contractor' })]);
          }));
      it('refuses a SubVendor named twice (by id or by email, both resolve to its id)', () =>
        given(splitDecider)
          .when(create([row('500', { contractor: subVendor(4) }, 1), row('500', { contractor: subVendor(4) }, 2)]))
          .thenFails('SPLIT_DUPLICATE_CONTRACTOR'));
      it('accepts a creator and a SubVendor that share a number (different contractors)', () =>
        given(splitDecider)
          .when(create([row('500', {}, 1), row('500', { contractor: subVendor(1) }, 2)]))
          .then((events) => expect(createdData(events).distributions).toHaveLength(2)));
    });

    describe('instant payout needs a wallet email (every row kind)', () => {
      it('refuses a sub-vendor elected for instant payout without a wallet email', () =>
        given(splitDecider)
          .when(create([row('500'), row('500', { contractor: subVendor(2), earlyPayoutElected: true }, 2)]))
          .thenFails('SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL', (error) => {
            expect(error.kind).toBe('unprocessable');
            expect(error.details).toEqual([expect.objectContaining({ field: 'roster.1.earlyPayoutElected' })]);
          }));
      it('accepts a sub-vendor with a wallet email', () =>
        given(splitDecider)
          .when(create([row('500', { contractor: subVendor(1, 'w@wallet.test'), earlyPayoutElected: true })]))
          .then((events) =>
            expect(createdData(events).distributions[0]).toEqual(expect.objectContaining({ subVendorId: 'sv_1', earlyPayoutElected: true, walletEmail: 'w@wallet.test' })),
          ));
      it('accepts a sub-vendor without a wallet email that is not elected', () =>
        given(splitDecider)
          .when(create([row('500', { contractor: subVendor(1) })]))
          .then((events) => expect(createdData(events).distributions[0].walletEmail).toBeNull()));
      it('refuses a creator elected for instant payout without a wallet, with the same code', () =>
        given(splitDecider)
          .when(create([row('500', { earlyPayoutElected: true })]))
          .thenFails('SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL', (error) => {
            expect(error.kind).toBe('unprocessable');
            expect(error.details).toEqual([expect.objectContaining({ field: 'roster.0.earlyPayoutElected' })]);
          }));
      it('accepts a creator with a wallet', () =>
        given(splitDecider)
          .when(create([row('500', { contractor: creator(1, 'w@wallet.test'), earlyPayoutElected: true })]))
          .then((events) => expect(createdData(events).distributions[0].earlyPayoutElected).toBe(true)));
      it('comes after the 400 amount rules', () =>
        given(splitDecider)
          .when(create([row('500', { contractor: subVendor(1), earlyPayoutElected: true })], '100'))
          .thenFails('SPLIT_TOTAL_BELOW_ROSTER_SUM'));
    });

    describe('enterprise settings', () => {
      it('auto-accept also approves at creation', () =>
        given(splitDecider)
          .when(create([row('1000')], null, { autoAccept: true, coverFees: false }))
          .then([created(), approved(true)]));
      it('coverFees charges the enterprise the leg A fee on the total', () =>
        given(splitDecider)
          .when(create([row('10000')], null, { autoAccept: false, coverFees: true }))
          .then([created({ totalAmountCents: '10000', enterpriseCoversFee: true, enterpriseFeeAmountCents: '100', distributions: [dist('10000')] })]));
      it('coverFees rounds the fee half up', () => {
        const feeIs = (fee: string) => (events: SplitEvent[]) => expect(createdData(events).enterpriseFeeAmountCents).toBe(fee);
        given(splitDecider)
          .when(create([row('12350')], null, { autoAccept: false, coverFees: true }))
          .then(feeIs('124')); // 123.5
        given(splitDecider)
          .when(create([row('12349')], null, { autoAccept: false, coverFees: true }))
          .then(feeIs('123')); // 123.49
        given(splitDecider)
          .when(create([row('50')], null, { autoAccept: false, coverFees: true }))
          .then(feeIs('1')); // 0.5
      });
      it('coverFees uses the total including margin', () =>
        given(splitDecider)
          .when(create([row('9950')], '12350', { autoAccept: false, coverFees: true }))
          .then((events) => expect(createdData(events).enterpriseFeeAmountCents).toBe('124')));
    });
  });

  describe('ReviseRoster', () => {
    it('replaces the roster of a pending Split', () => given(splitDecider, created()).when(revise()).then([revised()]));
    it('recomputes the margin on the new total', () =>
      given(splitDecider, created())
        .when(revise([row('1600')], '2000'))
        .then([revised({ marginAmountCents: '400', distributions: [dist('1600')] })]));
    it('recomputes the enterprise fee when the enterprise covers fees', () =>
      given(splitDecider, created({ enterpriseCoversFee: true, enterpriseFeeAmountCents: '10' }))
        .when(revise([row('12350')]))
        .then([revised({ totalAmountCents: '12350', enterpriseFeeAmountCents: '124', distributions: [dist('12350')] })]));
    it('applies the same roster rules', () => {
      given(splitDecider, created()).when(revise([])).thenFails('SPLIT_ROSTER_SIZE');
      given(splitDecider, created())
        .when(revise(rows(51)))
        .thenFails('SPLIT_ROSTER_SIZE');
      given(splitDecider, created())
        .when(revise([row('0')]))
        .thenFails('SPLIT_ROSTER_SUM_ZERO');
      given(splitDecider, created())
        .when(revise([row('1'), row('0', {}, 2)]))
        .thenFails('SPLIT_ROW_AMOUNT_NOT_POSITIVE');
      given(splitDecider, created())
        .when(revise([row('1000')], '999'))
        .thenFails('SPLIT_TOTAL_BELOW_ROSTER_SUM');
      given(splitDecider, created())
        .when(revise([row('799')], '1000'))
        .thenFails('SPLIT_MARGIN_CAP_EXCEEDED');
      given(splitDecider, created())
        .when(revise([row('1', { contractor: subVendor(), earlyPayoutElected: true })]))
        .thenFails('SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL');
      given(splitDecider, created())
        .when(revise([row('1000', {}, 1), row('1000', {}, 1)]))
        .thenFails('SPLIT_DUPLICATE_CONTRACTOR');
    });
    it.each([
      ['APPROVED', [approved()]],
      ['REJECTED', [rejected]],
      ['CANCELLED', [cancelled]],
    ])('conflicts once the Split is %s', (status, after) =>
      given(splitDecider, created(), ...(after as SplitEvent[]))
        .when(revise())
        .thenFails('SPLIT_NOT_PENDING_APPROVAL', (error) => {
          expect(error.kind).toBe('conflict');
          expect(error.message).toContain(status);
        }),
    );
    it('conflicts after auto-accept', () => given(splitDecider, created(), approved(true)).when(revise()).thenFails('SPLIT_NOT_PENDING_APPROVAL'));
    it('hides another company Split as not found', () =>
      given(splitDecider, created())
        .when(revise(undefined, null, OTHER))
        .thenFails('SPLIT_NOT_FOUND'));
    it('hides the Split from its enterprise too', () =>
      given(splitDecider, created())
        .when(revise(undefined, null, ENT))
        .thenFails('SPLIT_NOT_FOUND'));
    it('does not find an unknown Split', () => given(splitDecider).when(revise()).thenFails('SPLIT_NOT_FOUND'));
    it('answers not found before validating the roster', () => given(splitDecider).when(revise([])).thenFails('SPLIT_NOT_FOUND'));
    it('answers the conflict before validating the roster', () => given(splitDecider, created(), approved()).when(revise([])).thenFails('SPLIT_NOT_PENDING_APPROVAL'));
  });

  describe.each([
    ['ApproveSplit', approve, ENT, SME],
    ['RejectSplit', reject, ENT, SME],
    ['CancelSplit', cancel, SME, ENT],
  ] as const)('%s', (_name, command, party, otherParty) => {
    it.each([
      ['APPROVED', [approved()]],
      ['REJECTED', [rejected]],
      ['CANCELLED', [cancelled]],
    ])('conflicts when the Split is %s', (status, after) =>
      given(splitDecider, created(), ...(after as SplitEvent[]))
        .when(command(party))
        .thenFails('SPLIT_NOT_PENDING_APPROVAL', (error) => {
          expect(error.kind).toBe('conflict');
          expect(error.message).toContain(status);
        }),
    );
    it('hides the Split from an unrelated company', () => given(splitDecider, created()).when(command(OTHER)).thenFails('SPLIT_NOT_FOUND'));
    it('hides the Split from the other party', () => given(splitDecider, created()).when(command(otherParty)).thenFails('SPLIT_NOT_FOUND'));
    it('does not find an unknown Split', () =>
      given(splitDecider)
        .when(command(party))
        .thenFails('SPLIT_NOT_FOUND', (error) => expect(error.kind).toBe('not_found')));
  });

  describe('decisions on a pending Split', () => {
    it('the enterprise approves', () => given(splitDecider, created()).when(approve()).then([approved()]));
    it('the enterprise rejects with a reason', () => given(splitDecider, created()).when(reject()).then([rejected]));
    it('the enterprise rejects without a reason', () =>
      given(splitDecider, created())
        .when({ type: 'RejectSplit', data: { splitId: 'spl_1', enterpriseCompanyId: ENT, expectedRevision: 1, reason: null }, metadata: { now: later, actor: 'usr_ent' } })
        .then([{ ...rejected, data: { ...rejected.data, reason: null } } as SplitEvent]));
    it('the SME cancels', () => given(splitDecider, created()).when(cancel()).then([cancelled]));
    it('a revised Split can still be approved, at its new revision', () => given(splitDecider, created(), revised()).when(approve(ENT, 2)).then([approved()]));
  });

  describe('approving what was reviewed (issue 23)', () => {
    // The enterprise read the Split at 10000 (revision 1); the SME then revised it to 100000000.
    const raised = revised({ totalAmountCents: '100000000', distributions: [dist('100000000')] });
    const changed = (reviewed: number, current: number) => (error: { kind: string; message: string; details: unknown }) => {
      expect(error.kind).toBe('conflict');
      expect(error.details).toEqual([{ field: 'revision', message: `is ${reviewed}; the Split is now at revision ${current}`, currentRevision: current }]);
    };

    it('refuses an approval of the revision before the roster was revised, and decides nothing', () =>
      given(splitDecider, created({ totalAmountCents: '10000', distributions: [dist('10000')] }), raised)
        .when(approve(ENT, 1))
        .thenFails('SPLIT_CHANGED_SINCE_REVIEW', changed(1, 2)));
    it('refuses a rejection of another revision too', () => given(splitDecider, created(), raised).when(reject(ENT, 1)).thenFails('SPLIT_CHANGED_SINCE_REVIEW', changed(1, 2)));
    it('refuses a revision the Split never had', () => given(splitDecider, created()).when(approve(ENT, 2)).thenFails('SPLIT_CHANGED_SINCE_REVIEW', changed(2, 1)));
    it('approves the fresh revision after a second look', () => given(splitDecider, created(), raised, revised()).when(approve(ENT, 3)).then([approved()]));
    it('still hides the Split from another company and answers a decided one as not pending, whatever the revision', () => {
      given(splitDecider, created()).when(approve(OTHER, 7)).thenFails('SPLIT_NOT_FOUND');
      given(splitDecider, created(), approved()).when(approve(ENT, 7)).thenFails('SPLIT_NOT_PENDING_APPROVAL');
    });
    it('counts revisions from the events: 1 at creation, +1 per roster revision, unchanged by the decision', () => {
      expect(fold(splitDecider, [created()])).toMatchObject({ revision: 1 });
      expect(fold(splitDecider, [created(), raised, revised()])).toMatchObject({ revision: 3 });
      expect(fold(splitDecider, [created(), raised, approved()])).toMatchObject({ revision: 2, status: 'APPROVED' });
    });
  });

  describe('evolve', () => {
    it('starts empty', () => expect(splitDecider.initialState()).toEqual({ status: 'none' }));
    it('creates a pending Split with bigint totals', () =>
      expect(fold(splitDecider, [created({ totalAmountCents: '1250', marginAmountCents: '250', enterpriseCoversFee: true, enterpriseFeeAmountCents: '13' })])).toEqual({
        status: 'PENDING_APPROVAL',
        approvalPolicy: null,
        approvals: [],
        splitId: 'spl_1',
        revision: 1,
        legAPayoutId: 'po_a',
        requestHash: 'hash-1',
        smeCompanyId: SME,
        enterpriseCompanyId: ENT,
        currency: 'USD',
        enterpriseCoversFee: true,
        totalAmountCents: 1250n,
        marginAmountCents: 250n,
        enterpriseFeeAmountCents: 13n,
        enterpriseNetTermsDays: 30,
        apContactBusinessProfileId: 'bp_ap',
        distributions: [dist()],
        marginStatus: 'PENDING',
        marginInstantElected: false,
        feeDueCents: 0n,
        smeCoveredFeesDrawn: true,
        marginFeeCoverCents: 0n,
        fundedAt: null,
        rows: new Map(),
        reversals: new Map(),
      }));
    it('folds revise then approve', () =>
      given(splitDecider, created())
        .when(revise([row('800', {}, 1), row('400', {}, 2)], '1500'))
        .then(([revisedEvent]) => {
          const state = fold(splitDecider, [created(), revisedEvent, approved()]);
          expect(state).toEqual(
            expect.objectContaining({
              status: 'APPROVED',
              totalAmountCents: 1500n,
              marginAmountCents: 300n,
              enterpriseFeeAmountCents: 0n,
              distributions: [dist('800', {}, 1), dist('400', {}, 2)],
            }),
          );
        }));
    it.each([
      ['REJECTED', rejected],
      ['CANCELLED', cancelled],
      ['APPROVED', approved(true)],
    ])('moves to %s', (status, event) => expect(fold(splitDecider, [created(), event as SplitEvent]).status).toBe(status));
  });
});
