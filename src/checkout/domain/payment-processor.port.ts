import { Provider, SavedCard } from './checkout.events';

/** Card details as the buyer typed them. They pass through the processor adapter and are never stored. */
export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export type ChargeOutcome =
  | { kind: 'succeeded'; card: SavedCard | null }
  | { kind: 'requires_action'; card: SavedCard }
  | { kind: 'declined'; card: { brand: string; last4: string } | null; declineCode: string; reason: string };

export interface ChargeRequest {
  /**
   * The payment attempt recorded on the order before this call: the call's idempotency key. The same key
   * gets the same outcome and never a second charge.
   */
  attemptId: string;
  orderId: string;
  amountMinorUnits: string;
  currency: string;
  /** ISO time of the attempt (from the Clock): card expiry is checked against it. */
  now: string;
}

/** What the processor holds under an idempotency key: its answer, and whether that charge was voided since. */
export interface ChargeRecord {
  attemptId: string;
  orderId: string;
  amountMinorUnits: string;
  currency: string;
  /** `captured`: money taken; `voided`: taken and given back in full; the other answers moved no money. */
  status: 'captured' | 'voided' | 'requires_action' | 'declined';
  outcome: ChargeOutcome;
  at: string;
  voidedAt: string | null;
}

/**
 * A payment processor (docs/checkout.md#paying, docs/decisions.md#checkout): the sandbox adapters
 * implement it now; a live adapter is a config swap. Outcomes carry only brand, last4 and the processor's vault token, never the card number.
 */
export interface PaymentProcessor {
  readonly provider: Provider;
  /** On-session charge of a card the buyer entered (card processor only). */
  chargeCard(request: ChargeRequest, card: CardInput): Promise<ChargeOutcome>;
  /** The buyer completed the authentication step a requires_action outcome asked for. */
  completeAuthentication(request: ChargeRequest, card: SavedCard): Promise<ChargeOutcome>;
  /** Off-session charge of a saved card (subscription renewals). */
  chargeSavedCard(request: ChargeRequest, card: SavedCard): Promise<ChargeOutcome>;
  /** The buyer approved the payment in the wallet (wallet processor only). */
  approveWallet(request: ChargeRequest): Promise<ChargeOutcome>;
  /** What the processor answered under this key, or null when no call with it reached the processor. */
  retrieveCharge(attemptId: string): Promise<ChargeRecord | null>;
  /** Voids (gives back in full) the charge captured under this key; voiding it again changes nothing. */
  voidCharge(attemptId: string, now: string): Promise<void>;
  /** Returns (part of) a captured charge to the buyer (issue 26); a repeat under the same refundId returns the kept outcome and refunds nothing. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** What the processor answered under this refund key, or null when no call with it reached the processor. */
  retrieveRefund(refundId: string): Promise<RefundRecord | null>;
}

/**
 * A refund of (part of) a captured charge (issue 26). `refundId` is recorded on the order before the call
 * and is the call's idempotency key: the same key gets the same outcome and never a second refund.
 */
export interface RefundRequest {
  refundId: string;
  orderId: string;
  /** The attempt whose charge paid the order (null on orders paid before attempts were recorded). */
  chargeAttemptId: string | null;
  /** The card that paid (its vault token), null for a wallet payment. */
  card: SavedCard | null;
  amountMinorUnits: string;
  currency: string;
  now: string;
}

export type RefundOutcome = { kind: 'succeeded' } | { kind: 'failed'; failureCode: string; failureReason: string };

/** What the processor holds under a refund's key. */
export interface RefundRecord {
  refundId: string;
  orderId: string;
  amountMinorUnits: string;
  currency: string;
  outcome: RefundOutcome;
  at: string;
}

export interface PaymentProcessors {
  for(provider: Provider): PaymentProcessor;
}

export const PAYMENT_PROCESSORS = Symbol('PAYMENT_PROCESSORS');
