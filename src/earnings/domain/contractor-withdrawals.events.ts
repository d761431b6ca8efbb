import { DomainEvent } from '../../platform/domain/decider';

/** The part of a withdrawal one contractor ledger account pays (`contractor_balance:<contractor>`). */
export interface Allocation {
  contractor: string;
  amountCents: string;
}

export type WithdrawalRequested = DomainEvent<
  'contractor.withdrawal.requested',
  { userId: string; payoutId: string; currency: string; amountCents: string; walletEmail: string; allocations: Allocation[]; requestedAt: string }
>;
export type WithdrawalPaid = DomainEvent<'contractor.withdrawal.paid', { userId: string; payoutId: string; paidAt: string }>;
export type WithdrawalFailed = DomainEvent<'contractor.withdrawal.failed', { userId: string; payoutId: string; reason: string; failedAt: string }>;

export type ContractorWithdrawalEvent = WithdrawalRequested | WithdrawalPaid | WithdrawalFailed;

export const CONTRACTOR_WITHDRAWAL_EVENT_TYPES: ReadonlySet<string> = new Set<ContractorWithdrawalEvent['type']>([
  'contractor.withdrawal.requested',
  'contractor.withdrawal.paid',
  'contractor.withdrawal.failed',
]);

/** One stream per person (usr_): every withdrawal of theirs is decided on it, so two at once cannot both spend the same balance. */
export const CONTRACTOR_WITHDRAWALS_STREAM_PREFIX = 'contractor-withdrawals-';
export const contractorWithdrawalsStreamId = (userId: string) => `${CONTRACTOR_WITHDRAWALS_STREAM_PREFIX}${userId}`;
