import { randomBytes } from 'node:crypto';
import { OperationalStore } from '../../platform/read-store/operational-store.port';
import { Provider, SavedCard } from '../domain/checkout.events';
import {
  CardInput,
  ChargeOutcome,
  ChargeRecord,
  ChargeRequest,
  PaymentProcessor,
  PaymentProcessors,
  RefundOutcome,
  RefundRecord,
  RefundRequest,
} from '../domain/payment-processor.port';

/** Sandbox test cards (docs/checkout.md#sandbox-cards-sandboxtrue); any other Luhn-valid number behaves like SUCCEEDS. */
export const SANDBOX_CARDS = {
  SUCCEEDS: '4242424242424242',
  DECLINES: '4000000000000002',
  NEEDS_AUTHENTICATION: '4000002500003155',
  DECLINES_OFF_SESSION: '4000000000000341',
  /** Pays (on and off session), but every refund of its charges fails at the processor (issue 26). */
  REFUNDS_FAIL: '4000000000005126',
  /** Pays, but the merchant payout of each order it pays fails on the sandbox rail (issue 26; domain/sandbox-merchant-payouts.ts). */
  PAYOUT_FAILS: '4000000000000333',
} as const;

/** What the sandbox vault remembers about a saved card, encoded in its token (the number is never kept). */
type VaultBehaviour = 'ok' | 'offdecl' | 'refdecl';

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
 * What the sandbox processors answered, by idempotency key: a real processor keeps this on its side, so
 * it outlives a crash of this service. Kept as operational documents of the read store (the SQLite file
 * in DATA_DIR, or Mongo), so a restarted process (or the worker beside the API) finds it.
 */
export interface SandboxChargeBook {
  get(attemptId: string): Promise<ChargeRecord | null>;
  put(record: ChargeRecord): Promise<void>;
  all(): Promise<ChargeRecord[]>;
  /** Refunds by their key (issue 26). */
  getRefund(refundId: string): Promise<RefundRecord | null>;
  putRefund(record: RefundRecord): Promise<void>;
}

export const SANDBOX_CHARGES = 'sandbox_processor_charges';
export const SANDBOX_REFUNDS = 'sandbox_processor_refunds';
const ALL_CHARGES = 1_000_000;

export class OperationalChargeBook implements SandboxChargeBook {
  constructor(private readonly store: OperationalStore) {}
  async get(attemptId: string): Promise<ChargeRecord | null> {
    const doc = await this.store.getOperational<ChargeRecord & { id: string }>(SANDBOX_CHARGES, attemptId);
    return doc ? recordOf(doc) : null;
  }
  put(record: ChargeRecord): Promise<void> {
    return this.store.putOperational(SANDBOX_CHARGES, { id: record.attemptId, ...record });
  }
  async all(): Promise<ChargeRecord[]> {
    return (await this.store.listOperational<ChargeRecord & { id: string }>(SANDBOX_CHARGES, ALL_CHARGES)).map(recordOf);
  }
  async getRefund(refundId: string): Promise<RefundRecord | null> {
    const doc = await this.store.getOperational<RefundRecord & { id: string }>(SANDBOX_REFUNDS, refundId);
    if (!doc) return null;
    const { id: _id, ...record } = doc;
    return record;
  }
  putRefund(record: RefundRecord): Promise<void> {
    return this.store.putOperational(SANDBOX_REFUNDS, { id: record.refundId, ...record });
  }
}

/** For unit tests of the processors themselves (a process that never restarts). */
export class InMemoryChargeBook implements SandboxChargeBook {
  private readonly records = new Map<string, ChargeRecord>();
  async get(attemptId: string): Promise<ChargeRecord | null> {
    return this.records.get(attemptId) ?? null;
  }
  async put(record: ChargeRecord): Promise<void> {
    this.records.set(record.attemptId, record);
  }
  async all(): Promise<ChargeRecord[]> {
    return [...this.records.values()];
  }
  private readonly refunds = new Map<string, RefundRecord>();
  async getRefund(refundId: string): Promise<RefundRecord | null> {
    return this.refunds.get(refundId) ?? null;
  }
  async putRefund(record: RefundRecord): Promise<void> {
    this.refunds.set(record.refundId, record);
  }
}

function recordOf({ id: _id, ...record }: ChargeRecord & { id: string }): ChargeRecord {
  return record;
}

export interface SandboxProcessorOptions {
  /** SANDBOX_PROCESSOR_DELAY_MS: how long each charge call takes to answer (tests race requests against it). */
  delayMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What both sandbox processors do as a real processor would: every charge call carries an idempotency key;
 * the first call under a key decides and keeps the outcome, every later one (concurrent or after a crash)
 * gets that same outcome and charges nothing; a charge can be looked up and voided by its key.
 */
abstract class IdempotentSandboxProcessor {
  /**
   * Test-only fault: the next charge is taken and kept, and then its answer is lost (the call throws), as
   * when this process dies between the processor's answer and the append that records it.
   */
  readonly faults = { loseNextAnswer: false };
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    protected readonly book: SandboxChargeBook,
    private readonly options: SandboxProcessorOptions = { delayMs: 0 },
  ) {}

  retrieveCharge(attemptId: string): Promise<ChargeRecord | null> {
    return this.book.get(attemptId);
  }

  voidCharge(attemptId: string, now: string): Promise<void> {
    return this.serialized(attemptId, async () => {
      const record = await this.book.get(attemptId);
      if (!record || (record.status !== 'captured' && record.status !== 'voided')) throw new Error(`No captured charge under ${attemptId} to void`);
      if (record.status === 'captured') await this.book.put({ ...record, status: 'voided', voidedAt: now });
    });
  }

  retrieveRefund(refundId: string): Promise<RefundRecord | null> {
    return this.book.getRefund(refundId);
  }

  /**
   * A refund, answered once per refundId as charges are: the first call decides and keeps the outcome, a
   * repeat returns it and refunds nothing. It fails for a card paid with REFUNDS_FAIL, and for a charge the
   * processor no longer holds (voided).
   */
  refund(request: RefundRequest): Promise<RefundOutcome> {
    return this.serialized(`refund:${request.refundId}`, async () => {
      const known = await this.book.getRefund(request.refundId);
      if (known) return known.outcome;
      if (this.options.delayMs > 0) await sleep(this.options.delayMs);
      const charge = request.chargeAttemptId ? await this.book.get(request.chargeAttemptId) : null;
      const outcome: RefundOutcome =
        charge && charge.status !== 'captured'
          ? { kind: 'failed', failureCode: 'charge_not_captured', failureReason: `The charge is ${charge.status}; there is nothing to refund` }
          : request.card?.token.startsWith('tok_sandbox_refdecl_')
            ? { kind: 'failed', failureCode: 'refund_declined', failureReason: "The card's issuer refused the refund" }
            : { kind: 'succeeded' };
      const { refundId, orderId, amountMinorUnits, currency, now } = request;
      await this.book.putRefund({ refundId, orderId, amountMinorUnits, currency, outcome, at: now });
      return outcome;
    });
  }

  /** Answers a charge call once per key: a repeat returns the kept outcome. */
  protected answerOnce(request: ChargeRequest, decide: () => ChargeOutcome): Promise<ChargeOutcome> {
    return this.serialized(request.attemptId, async () => {
      const known = await this.book.get(request.attemptId);
      if (known) return known.outcome;
      if (this.options.delayMs > 0) await sleep(this.options.delayMs);
      const outcome = decide();
      const { attemptId, orderId, amountMinorUnits, currency, now } = request;
      await this.book.put({ attemptId, orderId, amountMinorUnits, currency, status: statusOf(outcome), outcome, at: now, voidedAt: null });
      if (this.faults.loseNextAnswer) {
        this.faults.loseNextAnswer = false;
        throw new Error(`sandbox fault: the charge under ${attemptId} was kept but its answer was lost`);
      }
      return outcome;
    });
  }

  /** Calls under one key run one after another in this process. */
  private serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(key) ?? Promise.resolve();
    const run = before.then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }
}

function statusOf(outcome: ChargeOutcome): ChargeRecord['status'] {
  if (outcome.kind === 'succeeded') return 'captured';
  return outcome.kind;
}

/**
 * The sandbox card processor. Deterministic: the outcome depends only on the card and the request.
 * The vault token is random and carries only the card's sandbox behaviour,
 * so off-session renewals can decline for 4000000000000341 without the number being stored anywhere.
 */
export class SandboxCardProcessor extends IdempotentSandboxProcessor implements PaymentProcessor {
  readonly provider = 'CARD_PROCESSOR' as const;

  chargeCard(request: ChargeRequest, input: CardInput): Promise<ChargeOutcome> {
    return this.answerOnce(request, () => cardOutcome(request, input));
  }

  completeAuthentication(request: ChargeRequest, card: SavedCard): Promise<ChargeOutcome> {
    return this.answerOnce(request, () => ({ kind: 'succeeded', card }));
  }

  chargeSavedCard(request: ChargeRequest, card: SavedCard): Promise<ChargeOutcome> {
    return this.answerOnce(request, () => {
      if (card.token.startsWith('tok_sandbox_offdecl_')) return decline({ brand: card.brand, last4: card.last4 }, 'card_declined', 'The saved card was declined off-session');
      return { kind: 'succeeded', card };
    });
  }

  async approveWallet(): Promise<ChargeOutcome> {
    throw new Error('The card processor has no wallet approval');
  }
}

function cardOutcome(request: ChargeRequest, input: CardInput): ChargeOutcome {
  const shown = { brand: cardBrand(input.number), last4: input.number.slice(-4) };
  if (!luhnValid(input.number)) return decline(null, 'incorrect_number', 'The card number is not valid');
  const now = new Date(request.now);
  const expired = input.expYear < now.getUTCFullYear() || (input.expYear === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1);
  if (expired) return decline(shown, 'expired_card', 'The card has expired');
  if (input.number === SANDBOX_CARDS.DECLINES) return decline(shown, 'card_declined', 'The card was declined');
  const behaviour: VaultBehaviour = input.number === SANDBOX_CARDS.DECLINES_OFF_SESSION ? 'offdecl' : input.number === SANDBOX_CARDS.REFUNDS_FAIL ? 'refdecl' : 'ok';
  const card: SavedCard = { ...shown, token: vaultToken(behaviour) };
  if (input.number === SANDBOX_CARDS.NEEDS_AUTHENTICATION) return { kind: 'requires_action', card };
  return { kind: 'succeeded', card };
}

/** The sandbox wallet processor: the buyer's approval on the hosted page always pays. */
export class SandboxWalletProcessor extends IdempotentSandboxProcessor implements PaymentProcessor {
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
  approveWallet(request: ChargeRequest): Promise<ChargeOutcome> {
    return this.answerOnce(request, () => ({ kind: 'succeeded', card: null }));
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
