import { DomainEvent } from '../../platform/domain/decider';

export type Provider = 'CARD_PROCESSOR' | 'WALLET_PROCESSOR';
export const PROVIDERS: readonly Provider[] = ['CARD_PROCESSOR', 'WALLET_PROCESSOR'];
export type CheckoutMode = 'REDIRECT' | 'EMBEDDED';
export const CHECKOUT_MODES: readonly CheckoutMode[] = ['REDIRECT', 'EMBEDDED'];
export type IntervalUnit = 'MONTHLY' | 'YEARLY';
export const INTERVAL_UNITS: readonly IntervalUnit[] = ['MONTHLY', 'YEARLY'];
/**
 * PARTIALLY_REFUNDED and REFUNDED (issue 26) are what the read model shows for a PAID order once refunds
 * succeeded on it; the order's own decider keeps it PAID (its payout and completion go on as before).
 */
export type OrderStatus = 'OPEN' | 'REQUIRES_ACTION' | 'PAID' | 'FAILED' | 'EXPIRED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
export const ORDER_STATUSES: readonly OrderStatus[] = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'FAILED', 'EXPIRED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
/** The buyer paid (a refund since does not unpay it: the receipt stays, the pay page shows it). */
export const wasPaid = (status: OrderStatus): boolean => status === 'PAID' || status === 'PARTIALLY_REFUNDED' || status === 'REFUNDED';

/** What is kept of a card: never the number (docs/decisions.md#checkout). The token is the processor's vault reference. */
export interface SavedCard {
  brand: string;
  last4: string;
  token: string;
}

/** A renewal order belongs to one subscription period and one attempt at charging it. */
export interface RenewalRef {
  subscriptionId: string;
  periodIndex: number;
  attempt: number;
}

export type OrderCreated = DomainEvent<
  'checkout.order.created',
  {
    orderId: string;
    merchantCompanyId: string;
    amountMinorUnits: string;
    currency: string;
    provider: Provider;
    checkoutMode: CheckoutMode;
    returnUrl: string;
    externalOrderRef: string | null;
    idempotencyKey: string | null;
    /**
     * With an idempotencyKey: SHA-256 of the create request's canonical JSON (every field but the key);
     * the same key with another request is 409 IDEMPOTENCY_KEY_REUSED. Absent on orders created before
     * issue 15, and null without a key.
     */
    requestHash?: string | null;
    subscriptionIntervalUnit: IntervalUnit | null;
    /** Set on renewal orders (charged off-session by the subscription); null on a buyer's checkout. */
    renewal: RenewalRef | null;
    /**
     * SHA-256 (hex) of the hosted page's token (`/pay/:orderId?t=`, the page's credential); null on
     * renewal orders. The token itself is stored nowhere (docs/decisions.md, issue 15).
     */
    pageTokenHash?: string | null;
    /** EMBEDDED only: SHA-256 (hex) of the clientSecret (`{orderId}_secret_{...}`). */
    clientSecretHash?: string | null;
    /** Orders created before issue 15 only: the page token in plaintext (new orders record its hash). */
    pageToken?: string | null;
    /** Orders created before issue 15 only: the EMBEDDED clientSecret in plaintext. */
    clientSecret?: string | null;
    /**
     * Recurring checkouts: the id of the subscription the order founds once paid. Random (the buyer's
     * only credential for the subscription), never derived from the order id. Absent on orders created
     * before it was recorded (their subscription id is derived, see foundedSubscriptionId).
     */
    subscriptionId?: string | null;
    /** The buyer's email the merchant passed (issue 29); absent when none was given and on older orders. */
    customerEmail?: string | null;
    createdAt: string;
    /** OPEN orders expire 24 h after creation; null on renewal orders (they settle at once). */
    expiresAt: string | null;
  }
>;
/** Which processor call a payment attempt makes. */
export type PaymentMethod = 'CARD' | 'AUTHENTICATION' | 'WALLET' | 'SAVED_CARD';
/**
 * Intent before effect (docs/money.md#charge-intent): recorded before the processor is called, with the
 * attempt id the call carries as its idempotency key. Only one attempt is in flight per order.
 */
export type OrderPaymentAttemptStarted = DomainEvent<
  'checkout.order.payment_attempt_started',
  /** `customerEmail` (issue 29): the email the buyer gave on the hosted pay form with this attempt; absent otherwise. */
  { orderId: string; attemptId: string; method: PaymentMethod; customerEmail?: string | null; at: string }
>;
/**
 * An attempt that stayed in flight past PAYMENT_ATTEMPT_STALE_MS (its process died before or while
 * calling the processor) and that the processor, asked by its key, has no answer for: the order takes
 * another attempt. A charge that still lands under that key is voided.
 */
export type OrderPaymentAttemptAbandoned = DomainEvent<'checkout.order.payment_attempt_abandoned', { orderId: string; attemptId: string; at: string }>;
/** Why a captured charge was not taken by its order. */
export type ChargeVoidReason = 'ORDER_EXPIRED' | 'ORDER_ALREADY_PAID' | 'ORDER_NOT_PAYABLE' | 'ATTEMPT_ABANDONED' | 'SUBSCRIPTION_CANCELLED';
/**
 * A charge captured under `attemptId` landed on an order that could no longer take it: the order records
 * it as void, and the checkout workflow voids it at the processor by the same key.
 */
export type OrderChargeVoided = DomainEvent<
  'checkout.order.charge_voided',
  { orderId: string; attemptId: string; amountMinorUnits: string; currency: string; provider: Provider; reason: ChargeVoidReason; at: string }
>;
/** `attemptId` (here and on the outcome events below): the attempt the outcome answers; absent on events written before attempts were recorded. */
export type OrderActionRequired = DomainEvent<'checkout.order.action_required', { orderId: string; card: SavedCard; attemptId?: string | null; at: string }>;
/** The buyer chose "use another card" on the authentication step: the pending card is dropped and the order is OPEN again. */
export type OrderAuthenticationAbandoned = DomainEvent<'checkout.order.authentication_abandoned', { orderId: string; at: string }>;
export type OrderPaymentDeclined = DomainEvent<
  'checkout.order.payment_declined',
  { orderId: string; card: { brand: string; last4: string } | null; declineCode: string; reason: string; attemptId?: string | null; at: string }
>;
export type OrderPaid = DomainEvent<
  'checkout.order.paid',
  {
    orderId: string;
    merchantCompanyId: string;
    amountMinorUnits: string;
    currency: string;
    provider: Provider;
    /** The card paid with (brand, last4, vault token); null for a wallet payment. */
    card: SavedCard | null;
    payoutId: string;
    /** Founding order with an opt-in: the subscription it creates. Renewal order: its subscription. */
    subscriptionId: string | null;
    subscriptionIntervalUnit: IntervalUnit | null;
    renewal: RenewalRef | null;
    /** The payment attempt whose charge paid the order; absent on orders paid before attempts were recorded. */
    attemptId?: string | null;
    /** The buyer's email known when the order was paid (issue 29): the merchant's or the one the buyer gave; absent without one. */
    customerEmail?: string | null;
    paidAt: string;
  }
>;
export type OrderFailed = DomainEvent<
  'checkout.order.failed',
  { orderId: string; subscriptionId: string; declineCode: string; reason: string; attemptId?: string | null; at: string }
>;
export type OrderExpired = DomainEvent<'checkout.order.expired', { orderId: string; at: string }>;
/** The merchant's payout for a PAID order completed: the source of the `checkout.completed` webhook. */
export type OrderCompleted = DomainEvent<
  'checkout.order.completed',
  {
    orderId: string;
    merchantCompanyId: string;
    payoutId: string;
    amountMinorUnits: string;
    currency: string;
    provider: Provider;
    /** Only on renewal orders (absent on the founding order's delivery: docs/checkout.md#checkoutcompleted). */
    renewalOf: string | null;
    at: string;
  }
>;

/** Refunds (issue 26, docs/checkout.md#refunds): pending until the processor answered, then succeeded or failed. */
export type RefundStatus = 'pending' | 'succeeded' | 'failed';
/**
 * Intent before effect: a refund of part or all of a PAID order's capture, recorded before the processor
 * is called with `refundId` as its idempotency key. `requestHash` fingerprints the request (amount and
 * reason): the same idempotencyKey with another request is 409 IDEMPOTENCY_KEY_REUSED.
 */
export type OrderRefundRequested = DomainEvent<
  'checkout.order.refund_requested',
  {
    orderId: string;
    merchantCompanyId: string;
    refundId: string;
    amountMinorUnits: string;
    currency: string;
    provider: Provider;
    reason: string | null;
    idempotencyKey: string;
    requestHash: string;
    at: string;
  }
>;
/** The processor returned the money to the buyer: the merchant's checkout balance is debited with it. */
export type OrderRefundSucceeded = DomainEvent<
  'checkout.order.refund_succeeded',
  { orderId: string; merchantCompanyId: string; refundId: string; amountMinorUnits: string; currency: string; at: string }
>;
/** The processor refused the refund: no money moved; the amount may be refunded again by another request. */
export type OrderRefundFailed = DomainEvent<
  'checkout.order.refund_failed',
  { orderId: string; merchantCompanyId: string; refundId: string; amountMinorUnits: string; currency: string; failureCode: string; failureReason: string; at: string }
>;

export type OrderEvent =
  | OrderCreated
  | OrderPaymentAttemptStarted
  | OrderPaymentAttemptAbandoned
  | OrderActionRequired
  | OrderAuthenticationAbandoned
  | OrderPaymentDeclined
  | OrderPaid
  | OrderChargeVoided
  | OrderFailed
  | OrderExpired
  | OrderCompleted
  | OrderRefundRequested
  | OrderRefundSucceeded
  | OrderRefundFailed;

export const ORDER_EVENT_TYPES: ReadonlySet<string> = new Set<OrderEvent['type']>([
  'checkout.order.created',
  'checkout.order.payment_attempt_started',
  'checkout.order.payment_attempt_abandoned',
  'checkout.order.action_required',
  'checkout.order.authentication_abandoned',
  'checkout.order.payment_declined',
  'checkout.order.paid',
  'checkout.order.charge_voided',
  'checkout.order.failed',
  'checkout.order.expired',
  'checkout.order.completed',
  'checkout.order.refund_requested',
  'checkout.order.refund_succeeded',
  'checkout.order.refund_failed',
]);

export const ORDER_STREAM_PREFIX = 'checkout_order-';
export const orderStreamId = (orderId: string) => `${ORDER_STREAM_PREFIX}${orderId}`;
