import { DomainEvent } from '../../platform/domain/decider';
import { IntervalUnit, Provider, SavedCard } from './checkout.events';

export type SubscriptionStatus = 'ACTIVE' | 'CANCELLED';
export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['ACTIVE', 'CANCELLED'];
/** MERCHANT_REQUEST (issue 29): the merchant cancelled it from its dashboard or its server. */
export type CancellationReason = 'PAYMENT_FAILED' | 'BUYER_REQUEST' | 'MERCHANT_REQUEST';

export type SubscriptionStarted = DomainEvent<
  'checkout.subscription.started',
  {
    subscriptionId: string;
    merchantCompanyId: string;
    foundingOrderId: string;
    intervalUnit: IntervalUnit;
    amountMinorUnits: string;
    currency: string;
    provider: Provider;
    card: SavedCard;
    /** The founding payment's time: every renewal date derives from it (month-end clamped). */
    anchorAt: string;
    /** The buyer's email from the founding order (issue 29): renewal emails go there; absent without one (nothing is sent). */
    customerEmail?: string | null;
    currentPeriodStart: string;
    currentPeriodEnd: string;
    startedAt: string;
  }
>;
export type SubscriptionRenewed = DomainEvent<
  'checkout.subscription.renewed',
  { subscriptionId: string; orderId: string; periodIndex: number; currentPeriodStart: string; currentPeriodEnd: string; at: string }
>;
export type SubscriptionRenewalDeclined = DomainEvent<
  'checkout.subscription.renewal_declined',
  { subscriptionId: string; orderId: string; periodIndex: number; attempt: number; consecutiveDeclines: number; nextAttemptAt: string | null; at: string }
>;
/**
 * Intent before effect for a renewal (docs/money.md#charge-intent): recorded on the subscription before
 * the saved card is charged off-session, with the attempt id the charge carries as its idempotency key.
 * Never recorded on a CANCELLED subscription, so a cancel that came first stops the charge.
 */
export type SubscriptionRenewalAttemptStarted = DomainEvent<
  'checkout.subscription.renewal_attempt_started',
  { subscriptionId: string; orderId: string; attemptId: string; periodIndex: number; attempt: number; at: string }
>;
export type SubscriptionCancelled = DomainEvent<'checkout.subscription.cancelled', { subscriptionId: string; reason: CancellationReason; at: string }>;

export type SubscriptionEvent = SubscriptionStarted | SubscriptionRenewalAttemptStarted | SubscriptionRenewed | SubscriptionRenewalDeclined | SubscriptionCancelled;

export const SUBSCRIPTION_EVENT_TYPES: ReadonlySet<string> = new Set<SubscriptionEvent['type']>([
  'checkout.subscription.started',
  'checkout.subscription.renewal_attempt_started',
  'checkout.subscription.renewed',
  'checkout.subscription.renewal_declined',
  'checkout.subscription.cancelled',
]);

export const SUBSCRIPTION_STREAM_PREFIX = 'checkout_subscription-';
export const subscriptionStreamId = (subscriptionId: string) => `${SUBSCRIPTION_STREAM_PREFIX}${subscriptionId}`;
