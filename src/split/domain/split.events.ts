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
    legAPayoutId: string;
    currency: string;
    totalAmountCents: string;
    marginAmountCents: string;
    enterpriseCoversFee: boolean;
    enterpriseFeeAmountCents: string;
    distributions: DistributionData[];
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
    revisedBy: string;
    revisedAt: string;
  }
>;

export type SplitApproved = DomainEvent<
  'split.leg_a.approved',
  { splitId: string; legAPayoutId: string; approvedBy: string; autoAccepted: boolean; approvedAt: string }
>;

export type SplitRejected = DomainEvent<
  'split.leg_a.rejected',
  { splitId: string; legAPayoutId: string; rejectedBy: string; reason: string | null; rejectedAt: string }
>;

export type SplitCancelled = DomainEvent<'split.cancelled', { splitId: string; cancelledBy: string; cancelledAt: string }>;

export type SplitEvent = SplitCreated | SplitRosterRevised | SplitApproved | SplitRejected | SplitCancelled;

export const SPLIT_EVENT_TYPES: ReadonlySet<string> = new Set<SplitEvent['type']>([
  'split.created',
  'split.roster.revised',
  'split.leg_a.approved',
  'split.leg_a.rejected',
  'split.cancelled',
]);

export const splitStreamId = (splitId: string) => `split-${splitId}`;
