import { DomainError } from '../../platform/domain/domain-error';

// One DomainError per rule; the kind maps to the HTTP status in src/platform/http/error-filter.ts.

/** EMBEDDED is accepted for CARD_PROCESSOR only (422; docs/checkout.md#create-a-checkout). */
export class CheckoutEmbeddedNeedsCardError extends DomainError {
  readonly code = 'CHECKOUT_EMBEDDED_NEEDS_CARD';
  readonly kind = 'unprocessable';
  constructor() {
    super('checkoutMode EMBEDDED is available only with provider CARD_PROCESSOR', [{ field: 'checkoutMode', message: 'EMBEDDED needs CARD_PROCESSOR' }]);
  }
}

/** A subscription opt-in needs the card processor (422; docs/checkout.md#create-a-checkout). */
export class CheckoutSubscriptionNeedsCardError extends DomainError {
  readonly code = 'CHECKOUT_SUBSCRIPTION_NEEDS_CARD';
  readonly kind = 'unprocessable';
  constructor() {
    super('subscriptionIntervalUnit is available only with provider CARD_PROCESSOR', [{ field: 'subscriptionIntervalUnit', message: 'recurring billing needs CARD_PROCESSOR' }]);
  }
}

export class CheckoutOrderNotFoundError extends DomainError {
  readonly code = 'CHECKOUT_ORDER_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Checkout order not found');
  }
}

/** The order is PAID, EXPIRED or FAILED: nothing more can be paid on it. */
export class CheckoutOrderNotPayableError extends DomainError {
  readonly code = 'CHECKOUT_ORDER_NOT_PAYABLE';
  readonly kind = 'conflict';
  constructor(readonly status: string) {
    super(`The order is ${status}; only an OPEN order can be paid`);
  }
}

/**
 * Another payment attempt on the order is waiting for the processor's answer (a concurrent confirm, a
 * double-submitted form): nothing is charged; the buyer reads the order's status or tries again.
 */
export class CheckoutPaymentInProgressError extends DomainError {
  readonly code = 'CHECKOUT_PAYMENT_IN_PROGRESS';
  readonly kind = 'conflict';
  constructor() {
    super('Another payment of this order is in progress; nothing was charged by this request. Read the order status, or try again shortly');
  }
}

/**
 * The processor took the charge but the order could no longer take it (it expired, or was paid by
 * another attempt meanwhile): the charge is recorded void on the order and given back to the card.
 */
export class CheckoutChargeVoidedError extends DomainError {
  readonly code = 'CHECKOUT_CHARGE_VOIDED';
  readonly kind = 'conflict';
  constructor(readonly status: string) {
    super(`The order is ${status} and could not take this payment: the charge was voided and nothing is owed`);
  }
}

/** The clientSecret (EMBEDDED) or page token (hosted page) does not belong to the order. */
export class CheckoutClientSecretInvalidError extends DomainError {
  readonly code = 'CHECKOUT_CLIENT_SECRET_INVALID';
  readonly kind = 'forbidden';
  constructor() {
    super('The clientSecret does not match this order', [{ field: 'clientSecret', message: 'does not match the order' }]);
  }
}

/** The card confirm call is for card orders; a wallet order is paid on its hosted page. */
export class CheckoutConfirmNeedsCardError extends DomainError {
  readonly code = 'CHECKOUT_CONFIRM_NEEDS_CARD';
  readonly kind = 'unprocessable';
  constructor() {
    super('This order is paid with WALLET_PROCESSOR on its hosted page, not with a card');
  }
}

/** The processor declined the card. The order stays OPEN: the buyer can try another card. */
export class CardDeclinedError extends DomainError {
  readonly code = 'CARD_DECLINED';
  readonly kind = 'unprocessable';
  constructor(
    readonly declineCode: string,
    reason: string,
  ) {
    super(reason, [{ field: 'card', message: reason, declineCode }]);
  }
}

/** The order is not waiting for buyer authentication. */
export class CheckoutNoActionPendingError extends DomainError {
  readonly code = 'CHECKOUT_NO_ACTION_PENDING';
  readonly kind = 'conflict';
  constructor(status: string) {
    super(`The order is ${status}; it is not waiting for buyer authentication`);
  }
}

export class CheckoutSubscriptionNotFoundError extends DomainError {
  readonly code = 'CHECKOUT_SUBSCRIPTION_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Subscription not found');
  }
}

export class PaymentLinkNotFoundError extends DomainError {
  readonly code = 'PAYMENT_LINK_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Payment link not found');
  }
}

/** No live processor adapter is configured outside sandbox mode. */
export class PaymentProcessorUnavailableError extends DomainError {
  readonly code = 'PAYMENT_PROCESSOR_UNAVAILABLE';
  readonly kind = 'unavailable';
  constructor(provider: string) {
    super(`No ${provider} adapter is configured (sandbox adapters run only with SANDBOX=true)`);
  }
}

/**
 * Too many orders started on payment links from one client address, or on one link, in the current
 * window (429 with Retry-After; docs/checkout.md#payment-links). Payment links take no credential, so
 * this is what keeps a flood of page posts from filling the merchant's order list and the event log.
 */
export class PaymentLinkOrdersLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly kind = 'rate_limited';
  constructor(override readonly retryAfterSeconds: number) {
    super(`Too many payments started on this checkout link; try again in ${retryAfterSeconds} s`);
  }
}

/** Only a PAID order can be refunded (422; docs/checkout.md#refunds). */
export class CheckoutOrderNotRefundableError extends DomainError {
  readonly code = 'CHECKOUT_ORDER_NOT_REFUNDABLE';
  readonly kind = 'unprocessable';
  constructor(readonly status: string) {
    super(`The order is ${status}; only a PAID order can be refunded`);
  }
}

/**
 * A refund may never take back more than the order captured: refunds that succeeded or are still pending
 * count (422; docs/checkout.md#refunds). Nothing is written.
 */
export class CheckoutRefundExceedsCapturedError extends DomainError {
  readonly code = 'CHECKOUT_REFUND_EXCEEDS_CAPTURED';
  readonly kind = 'unprocessable';
  constructor(
    readonly requestedMinorUnits: string,
    readonly refundableMinorUnits: string,
  ) {
    super(`A refund of ${requestedMinorUnits} is more than the ${refundableMinorUnits} still refundable on this order (captured less refunds succeeded or pending)`, [
      { field: 'amountMinorUnits', message: `at most ${refundableMinorUnits}` },
    ]);
  }
}
