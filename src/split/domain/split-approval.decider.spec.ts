import { given } from '../../../test/support/given-when-then';
import { CreateSplit, SplitCommand } from './split.commands';
import { splitDecider } from './split.decider';
import { DistributionData, SplitEvent } from './split.events';

// Issue 30: two-person approval of incoming Splits, auto-accept up to a cap, approvals cleared by a revision.

const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const POLICY = { requiredApprovals: 2 as const, aboveAmountCents: '50000' };

const dist: DistributionData = {
  id: 'dst_1',
  contractorPaymentProfileId: 'cpp_1',
  subVendorId: null,
  contractorDisplayName: 'Creator 1',
  creatorProfileId: 'cr_1',
  walletEmail: null,
  contractorEmail: 'creator1@example.com',
  amountCents: '100000',
  earlyPayoutElected: false,
  autoWithdrawElected: false,
  businessCoversFee: false,
};

const created = (totalAmountCents: string, approvalPolicy: typeof POLICY | null = POLICY): SplitEvent => ({
  type: 'split.created',
  data: {
    splitId: 'spl_1',
    smeCompanyId: 'co_sme',
    smeCompanyName: 'SME Ltd',
    enterpriseCompanyId: 'co_ent',
    enterpriseCompanyName: 'Enterprise Inc',
    enterpriseNetTermsDays: 30,
    apContactBusinessProfileId: 'bp_ap',
    clientIdempotencyKey: 'idem-1',
    requestHash: 'hash-1',
    legAPayoutId: 'po_a',
    currency: 'USD',
    totalAmountCents,
    marginAmountCents: '0',
    enterpriseCoversFee: false,
    enterpriseFeeAmountCents: '0',
    distributions: [{ ...dist, amountCents: totalAmountCents }],
    smeCoveredFeesDrawn: true,
    ...(approvalPolicy ? { approvalPolicy } : {}),
    createdBy: 'usr_sme',
    createdAt: now,
  },
});

const approve = (actor: string, expectedRevision = 1, approverIsSmeMember = false): SplitCommand => ({
  type: 'ApproveSplit',
  data: { splitId: 'spl_1', enterpriseCompanyId: 'co_ent', expectedRevision, approverIsSmeMember },
  metadata: { now: later, actor: actor },
});
const recorded = (approvedBy: string, approvalsRecorded: number, revision = 1): SplitEvent => ({
  type: 'split.approval.recorded',
  data: { splitId: 'spl_1', revision, approvedBy, approvalsRecorded, approvalsRequired: 2, approvedAt: later },
});
const approved = (approvedBy: string): SplitEvent => ({
  type: 'split.leg_a.approved',
  data: { splitId: 'spl_1', legAPayoutId: 'po_a', approvedBy, autoAccepted: false, approvedAt: later },
});
const revised: SplitEvent = {
  type: 'split.roster.revised',
  data: {
    splitId: 'spl_1',
    totalAmountCents: '90000',
    marginAmountCents: '0',
    enterpriseFeeAmountCents: '0',
    distributions: [{ ...dist, amountCents: '90000' }],
    revisedBy: 'usr_sme',
    revisedAt: later,
  },
};

function create(totalAmountCents: string, settings: CreateSplit['data']['settings']): SplitCommand {
  return {
    type: 'CreateSplit',
    data: {
      splitId: 'spl_1',
      legAPayoutId: 'po_a',
      smeCompanyId: 'co_sme',
      smeCompanyName: 'SME Ltd',
      enterprise: { companyId: 'co_ent', name: 'Enterprise Inc', netTermsDays: 30 },
      apContactBusinessProfileId: 'bp_ap',
      clientIdempotencyKey: 'idem-1',
      requestHash: 'hash-1',
      totalAmountCents: null,
      currency: 'USD',
      rows: [
        {
          distributionId: 'dst_1',
          contractor: { kind: 'creator', paymentProfileId: 'cpp_1', creatorProfileId: 'cr_1', displayName: 'Creator 1', email: 'creator1@example.com', walletEmail: null },
          amountCents: totalAmountCents,
          earlyPayoutElected: false,
          autoWithdrawElected: false,
          businessCoversFee: false,
        },
      ],
      settings,
      legAFeeBps: 100,
    },
    metadata: { now, actor: 'usr_sme' },
  };
}

describe('two-person approval of a Split (issue 30)', () => {
  it('given a Split above the policy amount, when a first member approves, then the approval is recorded and the Split stays pending', () => {
    given(splitDecider, created('100000'))
      .when(approve('user:usr_fin1'))
      .then([recorded('user:usr_fin1', 1)]);
  });

  it('given one approval, when a second member approves, then its approval and split.leg_a.approved (the webhook) land together', () => {
    given(splitDecider, created('100000'), recorded('user:usr_fin1', 1))
      .when(approve('user:usr_fin2'))
      .then([recorded('user:usr_fin2', 2), approved('user:usr_fin2')]);
  });

  it('given one approval, when the same member approves again, then SPLIT_ALREADY_APPROVED_BY_YOU', () => {
    given(splitDecider, created('100000'), recorded('user:usr_fin1', 1)).when(approve('user:usr_fin1')).thenFails('SPLIT_ALREADY_APPROVED_BY_YOU');
  });

  it('given a Split, when a member of the SME approves it (a person in both companies), then SPLIT_APPROVER_FROM_SME', () => {
    given(splitDecider, created('100000'))
      .when(approve('user:usr_both', 1, true))
      .thenFails('SPLIT_APPROVER_FROM_SME');
    given(splitDecider, created('100', null))
      .when(approve('user:usr_both', 1, true))
      .thenFails('SPLIT_APPROVER_FROM_SME');
  });

  it('given one approval, when the SME revises the roster, then the approval is void: two new approvals are needed', () => {
    given(splitDecider, created('100000'), recorded('user:usr_fin1', 1), revised)
      .when(approve('user:usr_fin1', 2))
      .then([recorded('user:usr_fin1', 1, 2)]);
  });

  it('given a Split at or below the policy amount, when one member approves, then it is approved at once, as before', () => {
    given(splitDecider, created('50000'))
      .when(approve('user:usr_fin1'))
      .then([approved('user:usr_fin1')]);
  });

  it('given a Split created before approval policies, when one member approves, then it is approved', () => {
    given(splitDecider, created('100000', null))
      .when(approve('user:usr_fin1'))
      .then([approved('user:usr_fin1')]);
  });

  it('given auto-accept with a cap, when a Split above the cap is created, then it waits for people; at or below, it is approved at creation', () => {
    const policy = { requiredApprovals: 1 as const, aboveAmountCents: '0', autoAcceptCapCents: '20000' };
    given(splitDecider)
      .when(create('20001', { autoAccept: true, coverFees: false, approvalPolicy: policy }))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.created']));
    given(splitDecider)
      .when(create('20000', { autoAccept: true, coverFees: false, approvalPolicy: policy }))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.created', 'split.leg_a.approved']));
  });

  it('given auto-accept and a two-approval policy, when a Split above the policy amount is created, then it waits for two people', () => {
    given(splitDecider)
      .when(create('100000', { autoAccept: true, coverFees: false, approvalPolicy: { ...POLICY, autoAcceptCapCents: null } }))
      .then((events) => {
        expect(events.map((e) => e.type)).toEqual(['split.created']);
        expect(events[0]!.data).toMatchObject({ approvalPolicy: POLICY });
      });
  });
});
