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
  orderId: string;
  amountMinorUnits: string;
  currency: string;
  /** ISO time of the attempt (from the Clock): card expiry is checked against it. */
  now: string;
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
}

export interface PaymentProcessors {
  for(provider: Provider): PaymentProcessor;
}

export const PAYMENT_PROCESSORS = Symbol('PAYMENT_PROCESSORS');
