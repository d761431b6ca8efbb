import { DomainEvent } from '../../platform/domain/decider';

/** A roster row as recorded: contractor resolved server-side, amounts as minor-unit strings. */
export interface DistributionData {
  id: string;
  contractorPaymentProfileId: string | null;
  subVendorId: string | null;
  contractorDisplayName: string;
  creatorProfileId: string | null;
  /** Wallet email on file when the row was recorded (needed for instant payout and auto-withdraw). */
  walletEmail: string | null;
  /** The contractor's own email (sandbox failure injection keys off it). */
  contractorEmail: string | null;
  amountCents: string;
  earlyPayoutElected: boolean;
  autoWithdrawElected: boolean;
  businessCoversFee: boolean;
}

export type SplitCreated = DomainEvent<
  'split.created',
  {
    splitId: string;
    smeCompanyId: string;
    smeCompanyName: string;
    enterpriseCompanyId: string;
    enterpriseCompanyName: string;
    enterpriseNetTermsDays: number;
    apContactBusinessProfileId: string;
    clientIdempotencyKey: string;
    /**
     * Fingerprint of the create request (totalAmountCents and roster, canonical JSON, SHA-256): the same
     * clientIdempotencyKey with another request is 409 IDEMPOTENCY_KEY_REUSED. Absent on Splits created
     * before it was recorded (their replays are not checked).
     */
    requestHash?: string;
    legAPayoutId: string;
    currency: string;
    totalAmountCents: string;
    marginAmountCents: string;
    enterpriseCoversFee: boolean;
    enterpriseFeeAmountCents: string;
    distributions: DistributionData[];
    /**
     * The fees this Split's SME covers are drawn from its own money when each row transfers (issue 23):
     * from the margin while it is held, else from what was set aside from its balance. Absent on Splits
     * created before: their covered fees were only ever recovered from the margin (docs/money.md).
     */
    smeCoveredFeesDrawn?: boolean;
    /** Issue 30: present when the enterprise's policy asks two people to approve above an amount. */
    approvalPolicy?: SplitApprovalPolicy;
    createdBy: string;
    createdAt: string;
  }
>;

export type SplitRosterRevised = DomainEvent<
  'split.roster.revised',
  {
    splitId: string;
    totalAmountCents: string;
    marginAmountCents: string;
    enterpriseFeeAmountCents: string;
    distributions: DistributionData[];
    /** As on split.created: a revision moves a Split created before issue 23 to the rule that draws covered fees. */
    smeCoveredFeesDrawn?: boolean;
    revisedBy: string;
    revisedAt: string;
  }
>;

/**
 * The approval policy the enterprise had for this SME when the Split was created (issue 30): above
 * `aboveAmountCents` the Split needs `requiredApprovals` different people. Absent: one approval (every
 * Split created before, and policies that ask for one).
 */
export interface SplitApprovalPolicy {
  requiredApprovals: 2;
  aboveAmountCents: string;
}

/**
 * One person's approval of a Split that needs two (issue 30), at the revision it reviewed. The last one
 * is followed by split.leg_a.approved, which keeps its meaning: the Split is approved.
 */
export type SplitApprovalRecorded = DomainEvent<
  'split.approval.recorded',
  { splitId: string; revision: number; approvedBy: string; approvalsRecorded: number; approvalsRequired: number; approvedAt: string }
>;

export type SplitApproved = DomainEvent<'split.leg_a.approved', { splitId: string; legAPayoutId: string; approvedBy: string; autoAccepted: boolean; approvedAt: string }>;

export type SplitRejected = DomainEvent<'split.leg_a.rejected', { splitId: string; legAPayoutId: string; rejectedBy: string; reason: string | null; rejectedAt: string }>;

export type SplitCancelled = DomainEvent<'split.cancelled', { splitId: string; cancelledBy: string; cancelledAt: string }>;

/**
 * Leg A paid: the Split is funded, the fee buffer for SME-covered instant fees is reserved.
 * `feeCoverFromMarginCents` (Splits that draw covered fees): the part of the fee buffer the margin pays,
 * set aside from the hold at once (at most the margin); the rest was set aside from the SME's balance.
 */
export type SplitFunded = DomainEvent<
  'split.funded',
  {
    splitId: string;
    legAPayoutId: string;
    rosterSumCents: string;
    feeBufferAmountCents: string;
    feeCoverFromMarginCents?: string;
    /**
     * Issue 27: the enterprise is billed by an invoice for this funding (the collection module issues it).
     * Absent on Splits funded before invoices existed: they get none, and nothing about them changes.
     */
    invoiced?: boolean;
    fundedAt: string;
  }
>;
/** The SME's balance was credited the roster sum (public event). */
export type SplitLegAClaimed = DomainEvent<'split.leg_a.claimed', { splitId: string; legAPayoutId: string; amountCents: string; claimedAt: string }>;
export type SplitMarginHeld = DomainEvent<'split.margin.held', { splitId: string; marginAmountCents: string; marginHoldStartedAt: string }>;
export type SplitMarginInstantElected = DomainEvent<'split.margin.instant_elected', { splitId: string; electedBy: string; electedAt: string }>;
/**
 * The margin left the hold for the SME's balance (public event): `feeRecoveredCents` of it repaid the
 * instant fees the SME covered, `creditedToBalanceCents` (the rest) reached the SME's company balance.
 */
export type SplitMarginSettled = DomainEvent<
  'split.margin.settled',
  {
    splitId: string;
    smeCompanyId: string;
    currency: string;
    marginAmountCents: string;
    feeRecoveredCents: string;
    creditedToBalanceCents: string;
    via: 'instant_election' | 'settle_call' | 'net_terms';
    releasedAt: string;
  }
>;
export type RosterEntryTransferStarted = DomainEvent<
  'split.roster_entry.transfer_started',
  {
    splitId: string;
    rosterEntryId: string;
    payoutId: string;
    attempt: number;
    instant: boolean;
    amountCents: string;
    feeAmountCents: string;
    netAmountCents: string;
    businessCoversFee: boolean;
    /** An on-demand instant payout whose fee the SME covers: the part of that fee set aside from the held margin. */
    feeCoverFromMarginCents?: string;
    destination: string | null;
    startedAt: string;
  }
>;
/**
 * One row reached its contractor's service balance (public event). `coveredFeePaidCents`: the fee the SME
 * covers on this row, paid with the transfer out of what was set aside for it (absent: none, or a Split
 * created before issue 23, whose covered fee stays due until the margin is released).
 */
export type RosterEntrySettled = DomainEvent<
  'split.roster_entry.settled',
  { splitId: string; rosterEntryId: string; payoutId: string; coveredFeePaidCents?: string; settledAt: string }
>;
/** One row's transfer failed; it is retried by timer (public event). */
export type RosterEntryFailed = DomainEvent<
  'split.roster_entry.failed',
  { splitId: string; rosterEntryId: string; payoutId: string | null; attempt: number; reason: string; nextAttemptAt: string; failedAt: string }
>;
export type RosterEntryWithdrawalStarted = DomainEvent<
  'split.roster_entry.withdrawal_started',
  { splitId: string; rosterEntryId: string; payoutId: string; amountCents: string; walletEmail: string; startedAt: string }
>;
export type SplitSettled = DomainEvent<'split.settled', { splitId: string; settledAt: string }>;

// ---- issue 26: reversals of transferred rows, rows that fail for good ------------------------------

/**
 * The SME took back `amountCents` of a transferred row (public event, docs/money.md#row-reversals): it
 * leaves the contractor's service balance (what the contractor already withdrew becomes its receivable)
 * for the SME's balance. `feeRefundedCents`: the part of the row's early-payout fee platform_fees gives
 * back to the SME with it (refundFee; '0' otherwise). `reversalId` derives from the row and the caller's
 * idempotencyKey; `requestHash` fingerprints the request (same key, other request: 409).
 */
export type RosterEntryReversed = DomainEvent<
  'split.roster_entry.reversed',
  {
    splitId: string;
    rosterEntryId: string;
    reversalId: string;
    amountCents: string;
    feeRefundedCents: string;
    reason: string;
    idempotencyKey: string;
    requestHash: string;
    reversedBy: string;
    reversedAt: string;
  }
>;
/** A row kept failing past the retry horizon (docs/money.md#failures): no more retries; the SME re-points it or takes it back (public as split.roster_entry.failed, final: true). */
export type RosterEntryFailedForGood = DomainEvent<
  'split.roster_entry.failed_for_good',
  { splitId: string; rosterEntryId: string; payoutId: string; attempt: number; reason: string; firstFailedAt: string; failedAt: string }
>;
/** The contractor a row pays, as recorded on the row. */
export type RowContractor = Pick<DistributionData, 'contractorPaymentProfileId' | 'subVendorId' | 'contractorDisplayName' | 'creatorProfileId' | 'walletEmail' | 'contractorEmail'>;
/** The SME re-pointed a row that failed for good to another contractor of its roster; its transfer starts again. */
export type RosterEntryRepointed = DomainEvent<
  'split.roster_entry.repointed',
  { splitId: string; rosterEntryId: string; contractor: RowContractor; repointedBy: string; repointedAt: string }
>;
/** The SME took a row that failed for good back: its amount stays in the SME's balance, no longer owed to anyone. */
export type RosterEntryTakenBack = DomainEvent<
  'split.roster_entry.taken_back',
  { splitId: string; rosterEntryId: string; amountCents: string; takenBackBy: string; takenBackAt: string }
>;

export type SplitSettlementEvent =
  | SplitFunded
  | SplitLegAClaimed
  | SplitMarginHeld
  | SplitMarginInstantElected
  | SplitMarginSettled
  | RosterEntryTransferStarted
  | RosterEntrySettled
  | RosterEntryFailed
  | RosterEntryWithdrawalStarted
  | SplitSettled
  | RosterEntryReversed
  | RosterEntryFailedForGood
  | RosterEntryRepointed
  | RosterEntryTakenBack;

export type SplitEvent = SplitCreated | SplitRosterRevised | SplitApprovalRecorded | SplitApproved | SplitRejected | SplitCancelled | SplitSettlementEvent | SplitSecondPersonEvent;

/**
 * Issue 30, the SME-side two-person rule: a pay-out-now or an instant margin release above the SME's own
 * threshold waits for a second member (split-second-person.ts). Older Splits have neither event.
 */
export type SecondPersonAction = 'pay_out_now' | 'settle_margin';
export type SplitSecondPersonRequested = DomainEvent<
  'split.second_person.requested',
  { splitId: string; action: SecondPersonAction; rosterEntryId: string | null; amountCents: string; aboveAmountCents: string; requestedBy: string; requestedAt: string }
>;
export type SplitSecondPersonConfirmed = DomainEvent<
  'split.second_person.confirmed',
  { splitId: string; action: SecondPersonAction; rosterEntryId: string | null; requestedBy: string; confirmedBy: string; confirmedAt: string }
>;
export type SplitSecondPersonEvent = SplitSecondPersonRequested | SplitSecondPersonConfirmed;

export const SPLIT_EVENT_TYPES: ReadonlySet<string> = new Set<SplitEvent['type']>([
  'split.created',
  'split.roster.revised',
  'split.approval.recorded',
  'split.leg_a.approved',
  'split.leg_a.rejected',
  'split.cancelled',
  'split.funded',
  'split.leg_a.claimed',
  'split.margin.held',
  'split.margin.instant_elected',
  'split.margin.settled',
  'split.roster_entry.transfer_started',
  'split.roster_entry.settled',
  'split.roster_entry.failed',
  'split.roster_entry.withdrawal_started',
  'split.settled',
  'split.roster_entry.reversed',
  'split.roster_entry.failed_for_good',
  'split.roster_entry.repointed',
  'split.roster_entry.taken_back',
  'split.second_person.requested',
  'split.second_person.confirmed',
]);

export const SPLIT_STREAM_PREFIX = 'split-';
export const splitStreamId = (splitId: string) => `${SPLIT_STREAM_PREFIX}${splitId}`;
