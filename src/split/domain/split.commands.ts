import { CommandMetadata } from '../../platform/domain/command';
import type { SecondPersonAction } from './split.events';

/** A contractor as the application layer resolved it before the decider sees the row. */
export type ResolvedContractor =
  | { kind: 'creator'; paymentProfileId: string; creatorProfileId: string; displayName: string; email: string; walletEmail: string | null }
  | { kind: 'sub_vendor'; subVendorId: string; creatorProfileId: string | null; displayName: string; email: string; walletEmail: string | null };

export interface RosterRowInput {
  distributionId: string;
  contractor: ResolvedContractor;
  /** Digits only (the DTO checked the shape); the decider checks it is positive. */
  amountCents: string;
  earlyPayoutElected: boolean;
  autoWithdrawElected: boolean;
  businessCoversFee: boolean;
}

export interface CreateSplit {
  type: 'CreateSplit';
  data: {
    splitId: string;
    legAPayoutId: string;
    smeCompanyId: string;
    smeCompanyName: string;
    enterprise: { companyId: string; name: string; netTermsDays: number };
    apContactBusinessProfileId: string;
    clientIdempotencyKey: string;
    requestHash: string;
    /** null: bill exactly the roster sum. */
    totalAmountCents: string | null;
    currency: string;
    rows: RosterRowInput[];
    /**
     * The enterprise's split settings for this SME at creation time. `approvalPolicy` (issue 30): how many
     * people approve above which total, and the cap up to which auto-accept applies (null: no cap).
     */
    settings: { autoAccept: boolean; coverFees: boolean; approvalPolicy?: ApprovalPolicyInput | null };
    /** Issue 27: the enterprise's invoice overdue beyond the limit, when it has one: auto-accept is suspended. */
    overdueInvoice?: OverdueInvoice | null;
    legAFeeBps: number;
  };
  metadata: CommandMetadata;
}

export interface ApprovalPolicyInput {
  requiredApprovals: 1 | 2;
  aboveAmountCents: string;
  autoAcceptCapCents: string | null;
}

export interface ReviseRoster {
  type: 'ReviseRoster';
  data: { splitId: string; smeCompanyId: string; totalAmountCents: string | null; rows: RosterRowInput[]; legAFeeBps: number };
  metadata: CommandMetadata;
}

export interface ApproveSplit {
  type: 'ApproveSplit';
  /** `expectedRevision`: the Split's revision the enterprise reviewed; another one is refused (409) and nothing is appended. */
  data: {
    splitId: string;
    enterpriseCompanyId: string;
    expectedRevision: number;
    /** Issue 27: the enterprise's invoice overdue beyond the limit, when it has one: refused. */
    overdueInvoice?: OverdueInvoice | null;
    /** The approving person is also a member of the SME (issue 30): refused. */
    approverIsSmeMember?: boolean;
  };
  metadata: CommandMetadata;
}

/** An invoice of the enterprise overdue beyond ENTERPRISE_OVERDUE_BLOCK_DAYS, as the handler found it (issue 27). */
export interface OverdueInvoice {
  invoiceId: string;
  daysOverdue: number;
}

export interface RejectSplit {
  type: 'RejectSplit';
  data: { splitId: string; enterpriseCompanyId: string; expectedRevision: number; reason: string | null };
  metadata: CommandMetadata;
}

export interface CancelSplit {
  type: 'CancelSplit';
  data: { splitId: string; smeCompanyId: string };
  metadata: CommandMetadata;
}

export interface FundSplit {
  type: 'FundSplit';
  data: { splitId: string; earlyPayoutFeeBps: number };
  metadata: CommandMetadata;
}

/**
 * Start (or retry) the transfer of one row; `instant` rows pay the early-payout fee. `onDemand` is the
 * SME's payout call: for a row already started it is refused (409), never a silent no-op. The decider
 * fixes the payout id per attempt (nextTransferAttempt), so a repeat decides nothing.
 */
export interface StartRowTransfer {
  type: 'StartRowTransfer';
  data: { splitId: string; distributionId: string; instant: boolean; onDemand?: boolean; earlyPayoutFeeBps: number };
  metadata: CommandMetadata;
}

export interface CompleteRowTransfer {
  type: 'CompleteRowTransfer';
  data: { splitId: string; distributionId: string; payoutId: string };
  metadata: CommandMetadata;
}

export interface FailRowTransfer {
  type: 'FailRowTransfer';
  data: { splitId: string; distributionId: string; payoutId: string; reason: string; nextAttemptAt: string };
  metadata: CommandMetadata;
}

export interface StartWithdrawal {
  type: 'StartWithdrawal';
  /**
   * `walletEmail` (issue 29): the contractor's own verified wallet as it is now, looked up when the row's
   * transfer completed; absent or null, the wallet recorded on the row when the Split was created pays.
   */
  data: { splitId: string; distributionId: string; payoutId: string; walletEmail?: string | null };
  metadata: CommandMetadata;
}

/** The SME's own call (session): release a held margin now, or elect instant release while pending. */
export interface SettleMargin {
  type: 'SettleMargin';
  data: { splitId: string; smeCompanyId: string };
  metadata: CommandMetadata;
}

export interface ReleaseMarginAtNetTerms {
  type: 'ReleaseMarginAtNetTerms';
  data: { splitId: string };
  metadata: CommandMetadata;
}

// ---- issue 26: reversals and rows that failed for good (domain/row-reversals.ts) --------------------

/** The SME takes back `amountCents` of a transferred row; `refundFee`: with its share of the early-payout fee. */
export interface ReverseRow {
  type: 'ReverseRow';
  data: {
    splitId: string;
    smeCompanyId: string;
    distributionId: string;
    reversalId: string;
    amountCents: string;
    reason: string;
    refundFee: boolean;
    idempotencyKey: string;
    requestHash: string;
  };
  metadata: CommandMetadata;
}

/** The SME points a row that failed for good at another contractor of its roster. */
export interface RepointRow {
  type: 'RepointRow';
  data: { splitId: string; smeCompanyId: string; distributionId: string; contractor: ResolvedContractor };
  metadata: CommandMetadata;
}

/** The SME takes a row that failed for good back to its balance. */
export interface TakeBackRow {
  type: 'TakeBackRow';
  data: { splitId: string; smeCompanyId: string; distributionId: string };
  metadata: CommandMetadata;
}

export type SplitSettlementCommand =
  FundSplit | StartRowTransfer | CompleteRowTransfer | FailRowTransfer | StartWithdrawal | SettleMargin | ReleaseMarginAtNetTerms | ReverseRow | RepointRow | TakeBackRow;

// ---- issue 30: the SME-side two-person rule (domain/split-second-person.ts) ------------------------

/** A member (or key) asks for a pay-out-now (`distributionId`) or an instant margin release above the SME's threshold. */
export interface RequestSecondPerson {
  type: 'RequestSecondPerson';
  data: { splitId: string; smeCompanyId: string; action: SecondPersonAction; distributionId: string | null; aboveAmountCents: string };
  metadata: CommandMetadata;
}

/** A second member confirms it; the money moves in the same append. */
export interface ConfirmSecondPerson {
  type: 'ConfirmSecondPerson';
  data: { splitId: string; smeCompanyId: string; action: SecondPersonAction; distributionId: string | null };
  metadata: CommandMetadata;
}

export type SplitCommand = CreateSplit | ReviseRoster | ApproveSplit | RejectSplit | CancelSplit | SplitSettlementCommand | RequestSecondPerson | ConfirmSecondPerson;
