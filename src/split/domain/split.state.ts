import { Cents } from '../../platform/money/money';
import { DistributionData, SecondPersonAction, SplitApprovalPolicy } from './split.events';

/** docs/api.md#the-split-object-spec-23; docs/money.md#the-lifecycle shows how each status is reached. */
export const SPLIT_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'FUNDED', 'SETTLING', 'SETTLED', 'REJECTED', 'CANCELLED'] as const;
export type SplitStatus = (typeof SPLIT_STATUSES)[number];

/** What the decider needs to know about a Split that exists. */
export interface ExistingSplit {
  status: SplitStatus;
  splitId: string;
  /**
   * The version of what the enterprise is asked to approve: 1 at creation, +1 on every roster revision.
   * Folded from the events (never stored), so Splits written before it existed have it too; approve and
   * reject name the revision that was reviewed (docs/api.md#approving-what-was-reviewed).
   */
  revision: number;
  legAPayoutId: string;
  /** Fingerprint of the create request (absent on Splits created before it was recorded). */
  requestHash?: string;
  smeCompanyId: string;
  enterpriseCompanyId: string;
  enterpriseNetTermsDays: number;
  /** The enterprise's AP contact the Split bills (the invoice's addressee, issue 27). */
  apContactBusinessProfileId?: string;
  currency: string;
  enterpriseCoversFee: boolean;
  totalAmountCents: Cents;
  marginAmountCents: Cents;
  enterpriseFeeAmountCents: Cents;
  distributions: DistributionData[];
  marginStatus: 'NONE' | 'PENDING' | 'HELD' | 'RELEASED';
  marginInstantElected: boolean;
  fundedAt: string | null;
  /**
   * Instant fees the SME chose to cover on rows already transferred, not yet recovered from the margin.
   * The margin's release recovers them first; only the rest reaches the SME's balance (docs/money.md).
   */
  feeDueCents: Cents;
  /** Covered fees are drawn from the SME's own money (issue 23); false for a Split created before (docs/money.md#fees-the-sme-covers). */
  smeCoveredFeesDrawn: boolean;
  /** The part of the margin set aside for covered fees (at funding, and by on-demand payouts while it is held). */
  marginFeeCoverCents: Cents;
  /** Issue 30: two approvals above an amount; null for one approval (every Split created before). */
  approvalPolicy: SplitApprovalPolicy | null;
  /** Approvals of the current revision recorded so far (a roster revision clears them). */
  approvals: { approvedBy: string; approvedAt: string }[];
  /** Transfer progress per distribution id. A Map: an id like `constructor` must not find anything inherited. */
  rows: ReadonlyMap<string, RowProgress>;
  /** Reversals recorded, by reversalId (issue 26): a repeated idempotencyKey replays, or is refused with another request. */
  reversals: ReadonlyMap<string, RowReversal>;
  /** Issue 30: pay-outs-now and margin releases waiting for a second member (absent on older Splits: none). */
  secondPersonRequests?: readonly SecondPersonRequest[];
}

/** One request waiting for a second member (split.second_person.requested); rosterEntryId null for the margin. */
export interface SecondPersonRequest {
  action: SecondPersonAction;
  rosterEntryId: string | null;
  amountCents: string;
  aboveAmountCents: string;
  requestedBy: string;
  requestedAt: string;
}

/** One reversal as the Split remembers it (split.roster_entry.reversed). */
export interface RowReversal {
  rosterEntryId: string;
  requestHash: string;
  amountCents: string;
  feeRefundedCents: string;
  reason: string;
  reversedAt: string;
}

export interface RowProgress {
  attempt: number;
  payoutId: string | null;
  instant: boolean;
  netAmountCents: string | null;
  /** The instant fee of the current transfer when the SME covers it ('0' otherwise); null before any transfer. */
  coveredFeeCents: string | null;
  transferring: boolean;
  settled: boolean;
  withdrawalPayoutId: string | null;
  /** The early-payout fee of the current transfer (whoever bears it); null before any transfer. */
  feeAmountCents: string | null;
  /** Issue 26: what reversals took back of the row's net, and of its fee, so far. */
  reversedCents: Cents;
  feeRefundedCents: Cents;
  /** The first failure of the row's current contractor (the retry horizon counts from it); null while none failed. */
  firstFailedAt: string | null;
  /** Past the retry horizon: no more retries until the SME re-points the row or takes it back. */
  failedForGood: boolean;
  /** The SME took the failed row back: it counts as done for the Split's settlement. */
  takenBack: boolean;
}

export type SplitState = { status: 'none' } | ExistingSplit;

export const splitExists = (state: SplitState): state is ExistingSplit => state.status !== 'none';
