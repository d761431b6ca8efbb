import { DomainEvent } from '../../platform/domain/decider';

/** `merchant`: a PAID checkout order's money paid out to the merchant company (splitId is '' there). */
export type PayoutKind = 'leg_a' | 'leg_b_transfer' | 'leg_b_withdrawal' | 'merchant';
export type PayoutStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

/** Every payout event repeats what it is for, so read models can follow it without a lookup. */
export interface PayoutRef {
  payoutId: string;
  kind: PayoutKind;
  splitId: string;
  distributionId: string | null;
}

export type PayoutRequested = DomainEvent<
  'payout.requested',
  PayoutRef & {
    amountCents: string;
    currency: string;
    destination: string | null;
    attempt: number;
    requestedAt: string;
    /** merchant payouts: the order paid out */ orderId?: string;
  }
>;
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
