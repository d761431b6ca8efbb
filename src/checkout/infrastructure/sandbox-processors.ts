import { randomBytes } from 'node:crypto';
import { Provider, SavedCard } from '../domain/checkout.events';
import { CardInput, ChargeOutcome, ChargeRequest, PaymentProcessor, PaymentProcessors } from '../domain/payment-processor.port';

/** Sandbox test cards (docs/checkout.md#sandbox-cards-sandboxtrue); any other Luhn-valid number behaves like SUCCEEDS. */
export const SANDBOX_CARDS = {
  SUCCEEDS: '4242424242424242',
  DECLINES: '4000000000000002',
  NEEDS_AUTHENTICATION: '4000002500003155',
  DECLINES_OFF_SESSION: '4000000000000341',
} as const;

/** What the sandbox vault remembers about a saved card, encoded in its token (the number is never kept). */
type VaultBehaviour = 'ok' | 'offdecl';

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'unknown';
}

const decline = (card: { brand: string; last4: string } | null, declineCode: string, reason: string): ChargeOutcome => ({ kind: 'declined', card, declineCode, reason });

/**
 * The sandbox card processor. Deterministic: the outcome depends only on the card and the request.
 * The vault token is random and carries only the card's sandbox behaviour,
 * so off-session renewals can decline for 4000000000000341 without the number being stored anywhere.
 */
export class SandboxCardProcessor implements PaymentProcessor {
  readonly provider = 'CARD_PROCESSOR' as const;

  async chargeCard(request: ChargeRequest, input: CardInput): Promise<ChargeOutcome> {
    const shown = { brand: cardBrand(input.number), last4: input.number.slice(-4) };
    if (!luhnValid(input.number)) return decline(null, 'incorrect_number', 'The card number is not valid');
    const now = new Date(request.now);
    const expired = input.expYear < now.getUTCFullYear() || (input.expYear === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1);
    if (expired) return decline(shown, 'expired_card', 'The card has expired');
    if (input.number === SANDBOX_CARDS.DECLINES) return decline(shown, 'card_declined', 'The card was declined');
    const behaviour: VaultBehaviour = input.number === SANDBOX_CARDS.DECLINES_OFF_SESSION ? 'offdecl' : 'ok';
    const card: SavedCard = { ...shown, token: vaultToken(behaviour) };
    if (input.number === SANDBOX_CARDS.NEEDS_AUTHENTICATION) return { kind: 'requires_action', card };
    return { kind: 'succeeded', card };
  }

  async completeAuthentication(_request: ChargeRequest, card: SavedCard): Promise<ChargeOutcome> {
    return { kind: 'succeeded', card };
  }

  async chargeSavedCard(_request: ChargeRequest, card: SavedCard): Promise<ChargeOutcome> {
    if (card.token.startsWith('tok_sandbox_offdecl_')) return decline({ brand: card.brand, last4: card.last4 }, 'card_declined', 'The saved card was declined off-session');
    return { kind: 'succeeded', card };
  }

  async approveWallet(): Promise<ChargeOutcome> {
    throw new Error('The card processor has no wallet approval');
  }
}

/** The sandbox wallet processor: the buyer's approval on the hosted page always pays. */
export class SandboxWalletProcessor implements PaymentProcessor {
  readonly provider = 'WALLET_PROCESSOR' as const;

  async chargeCard(): Promise<ChargeOutcome> {
    throw new Error('The wallet processor takes no card');
  }
  async completeAuthentication(): Promise<ChargeOutcome> {
    throw new Error('The wallet processor has no authentication step');
  }
  async chargeSavedCard(): Promise<ChargeOutcome> {
    throw new Error('The wallet processor has no saved cards');
  }
  async approveWallet(): Promise<ChargeOutcome> {
    return { kind: 'succeeded', card: null };
  }
}

function vaultToken(behaviour: VaultBehaviour): string {
  // Random: the token says nothing about the number (a real vault keeps the number on its side).
  return `tok_sandbox_${behaviour}_${randomBytes(12).toString('hex')}`;
}

export class StaticPaymentProcessors implements PaymentProcessors {
  private readonly byProvider: Map<Provider, PaymentProcessor>;
  constructor(processors: PaymentProcessor[]) {
    this.byProvider = new Map(processors.map((p) => [p.provider, p]));
  }
  for(provider: Provider): PaymentProcessor {
    const processor = this.byProvider.get(provider);
    if (!processor) throw new Error(`No processor for ${provider}`);
    return processor;
  }
}
