import { DomainEvent } from '../../platform/domain/decider';

export type PayoutStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

/**
 * What a payout is for, by kind: a Split's leg A (the enterprise's bill, advanced), a roster row's
 * transfer or its withdrawal to the contractor's wallet, or a PAID checkout order's money paid out to
 * the merchant. Every payout event repeats it, so read models can follow a payout without a lookup.
 */
export type PayoutRef =
  | { payoutId: string; kind: 'leg_a'; splitId: string; distributionId: null }
  | { payoutId: string; kind: 'leg_b_transfer' | 'leg_b_withdrawal'; splitId: string; distributionId: string }
  | { payoutId: string; kind: 'merchant'; orderId: string }
  /** A contractor moving its service balance to its wallet: which of its contractor accounts pay how much. */
  | { payoutId: string; kind: 'contractor_withdrawal'; userId: string; currency: string; allocations: WithdrawalAllocation[] };

/** One contractor ledger account (`contractor_balance:<cpp_|sv_...>`) and the part of a withdrawal it pays. */
export interface WithdrawalAllocation {
  contractor: string;
  amountCents: string;
}

export type PayoutKind = PayoutRef['kind'];
export type SplitPayoutRef = Exclude<PayoutRef, { kind: 'merchant' } | { kind: 'contractor_withdrawal' }>;

/** The reference part of a payout event's data. */
export function payoutRefOf(data: PayoutRef): PayoutRef {
  if (data.kind === 'merchant') return { payoutId: data.payoutId, kind: data.kind, orderId: data.orderId };
  if (data.kind === 'contractor_withdrawal') return { payoutId: data.payoutId, kind: data.kind, userId: data.userId, currency: data.currency, allocations: data.allocations };
  if (data.kind === 'leg_a') return { payoutId: data.payoutId, kind: data.kind, splitId: data.splitId, distributionId: null };
  return { payoutId: data.payoutId, kind: data.kind, splitId: data.splitId, distributionId: data.distributionId };
}

/** What is asked of the rail: how much, where to, and which attempt of the same transfer this is. */
export type PayoutRequest = PayoutRef & { amountCents: string; currency: string; destination: string | null; attempt: number };

export type PayoutRequested = DomainEvent<'payout.requested', PayoutRequest & { requestedAt: string }>;
export type PayoutProcessing = DomainEvent<'payout.processing', PayoutRef & { at: string }>;
export type PayoutCompleted = DomainEvent<'payout.completed', PayoutRef & { at: string }>;
export type PayoutFailed = DomainEvent<'payout.failed', PayoutRef & { reason: string; at: string }>;

export type PayoutEvent = PayoutRequested | PayoutProcessing | PayoutCompleted | PayoutFailed;

export const PAYOUT_EVENT_TYPES: ReadonlySet<string> = new Set<PayoutEvent['type']>(['payout.requested', 'payout.processing', 'payout.completed', 'payout.failed']);

export const PAYOUT_STREAM_PREFIX = 'payout-';
export const payoutStreamId = (payoutId: string) => `${PAYOUT_STREAM_PREFIX}${payoutId}`;

export const STATUS_AFTER: Record<PayoutEvent['type'], PayoutStatus> = {
  'payout.requested': 'PENDING',
  'payout.processing': 'PROCESSING',
  'payout.completed': 'COMPLETED',
  'payout.failed': 'FAILED',
};
