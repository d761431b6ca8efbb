import { assertNever, Decider } from '../../platform/domain/decider';
import { sha256Hex } from '../../platform/ids/ids';
import { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';
import { ChargeVoidReason, CheckoutMode, IntervalUnit, OrderCreated, OrderEvent, OrderStatus, PaymentMethod, Provider, RefundStatus, SavedCard } from './checkout.events';
import {
  CheckoutOrderNotRefundableError,
  CheckoutRefundExceedsCapturedError,
  CheckoutEmbeddedNeedsCardError,
  CheckoutNoActionPendingError,
  CheckoutOrderNotFoundError,
  CheckoutOrderNotPayableError,
  CheckoutPaymentInProgressError,
  CheckoutSubscriptionNeedsCardError,
} from './checkout.errors';
import { RefundOutcome } from './payment-processor.port';
import { CommandMetadata } from '../../platform/domain/command';

export const ORDER_LIFETIME_MS = 24 * 3_600_000;
/**
 * A payment attempt in flight longer than this (by the Clock) is presumed dead: the next try asks the
 * processor by its key and, when the processor has nothing under it, abandons it and starts another.
 */
export const PAYMENT_ATTEMPT_STALE_MS = 60_000;

export type OrderCommand =
  | { type: 'CreateOrder'; data: Omit<OrderCreated['data'], 'createdAt' | 'expiresAt'>; metadata: CommandMetadata }
  | { type: 'StartPaymentAttempt'; data: { attemptId: string; method: PaymentMethod; customerEmail?: string | null }; metadata: CommandMetadata }
  | { type: 'AbandonPaymentAttempt'; data: { attemptId: string }; metadata: CommandMetadata }
  // `attemptId` on the outcome commands: the attempt the processor answered; an outcome for an attempt no longer in flight records nothing.
  | { type: 'RequireAction'; data: { card: SavedCard; attemptId?: string }; metadata: CommandMetadata }
  | { type: 'AbandonAuthentication'; data: object; metadata: CommandMetadata }
  | { type: 'RecordDecline'; data: { card: { brand: string; last4: string } | null; declineCode: string; reason: string; attemptId?: string }; metadata: CommandMetadata }
  /**
   * A captured charge. With an attemptId it is recorded exactly once: PAID when the order can take it,
   * otherwise `charge_voided` (the workflow then voids it at the processor); `voidReason` is the caller's
   * reason to refuse it (a renewal whose subscription was cancelled meanwhile).
   */
  | {
      type: 'MarkPaid';
      data: { card: SavedCard | null; payoutId: string; subscriptionId: string | null; attemptId?: string; voidReason?: ChargeVoidReason };
      metadata: CommandMetadata;
    }
  | { type: 'FailRenewal'; data: { declineCode: string; reason: string; attemptId?: string }; metadata: CommandMetadata }
  | { type: 'Expire'; data: object; metadata: CommandMetadata }
  | { type: 'CompleteOrder'; data: { payoutId: string }; metadata: CommandMetadata }
  /** A refund of a PAID order (issue 26): `refundId` derives from the order and the caller's idempotencyKey. */
  | { type: 'RequestRefund'; data: { refundId: string; amountMinorUnits: string; reason: string | null; idempotencyKey: string; requestHash: string }; metadata: CommandMetadata }
  /** The processor's answer to a pending refund; an answer for a refund no longer pending records nothing. */
  | { type: 'RecordRefundOutcome'; data: { refundId: string; outcome: RefundOutcome }; metadata: CommandMetadata };

/** One refund of the order, as the decider needs it. */
export interface OrderRefund {
  amountMinorUnits: string;
  status: RefundStatus;
  requestHash: string;
}

/** What every order carries from its creation on. */
export type OrderData = Pick<
  OrderCreated['data'],
  | 'orderId'
  | 'merchantCompanyId'
  | 'amountMinorUnits'
  | 'currency'
  | 'provider'
  | 'checkoutMode'
  | 'subscriptionIntervalUnit'
  | 'renewal'
  | 'pageToken'
  | 'clientSecret'
  | 'subscriptionId'
  | 'expiresAt'
> & {
  /** What the buyer's page token and clientSecret are checked against (storedSecretHash). */
  pageTokenHash: string | null;
  clientSecretHash: string | null;
  /** The create request's fingerprint (orders created with an idempotencyKey since issue 15). */
  requestHash: string | null;
  /** The buyer's email (issue 29): the merchant's customerEmail, replaced by one the buyer gave with a payment attempt; null without one. */
  customerEmail: string | null;
};

/** The payment attempt whose processor call is under way (recorded, not yet answered). */
export interface AttemptInFlight {
  attemptId: string;
  method: PaymentMethod;
  startedAt: string;
}

export type OrderState =
  | { status: 'NONE' }
  | (OrderData & {
      status: OrderStatus;
      pendingCard: SavedCard | null;
      payoutId: string | null;
      completed: boolean;
      inFlight: AttemptInFlight | null;
      /** The attempt whose charge paid the order (null: unpaid, or paid before attempts were recorded). */
      paidAttemptId: string | null;
      voidedAttemptIds: readonly string[];
      /** The card that paid (its vault token is what a refund goes back to); null for a wallet or an unpaid order. Absent on states folded before issue 26. */
      paidCard?: SavedCard | null;
      /** Refunds by refundId (issue 26); absent on states folded before. */
      refunds?: Readonly<Record<string, OrderRefund>>;
    });

/** Create-checkout's semantic rules (422, docs/checkout.md#create-a-checkout), checked before anything is written. */
export function checkOrderRules(request: { provider: Provider; checkoutMode: CheckoutMode; subscriptionIntervalUnit: IntervalUnit | null }): void {
  if (request.checkoutMode === 'EMBEDDED' && request.provider !== 'CARD_PROCESSOR') throw new CheckoutEmbeddedNeedsCardError();
  if (request.subscriptionIntervalUnit !== null && request.provider !== 'CARD_PROCESSOR') throw new CheckoutSubscriptionNeedsCardError();
}

/** An order takes a payment only while OPEN (or waiting for buyer authentication) and not past its expiry. */
export function assertPayable(state: OrderState, now: string): asserts state is Exclude<OrderState, { status: 'NONE' }> {
  if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
  if (state.status !== 'OPEN' && state.status !== 'REQUIRES_ACTION') throw new CheckoutOrderNotPayableError(state.status);
  if (state.expiresAt !== null && now >= state.expiresAt) throw new CheckoutOrderNotPayableError('EXPIRED');
}

/** The hash an order's secret is checked against: recorded since issue 15, computed for older orders' plaintext. */
export function storedSecretHash(hash: string | null | undefined, legacyPlaintext: string | null | undefined): string | null {
  if (hash) return hash;
  return legacyPlaintext ? sha256Hex(legacyPlaintext) : null;
}

/**
 * The created event, field by field: this runs on every create-checkout, and V8 copies a spread of the
 * command's rest (`{ ...data, createdAt }`) through a slow dictionary-mode object.
 */
function createOrder(command: Extract<OrderCommand, { type: 'CreateOrder' }>['data'], meta: CommandMetadata): OrderCreated {
  checkOrderRules(command);
  return {
    type: 'checkout.order.created',
    data: {
      orderId: command.orderId,
      merchantCompanyId: command.merchantCompanyId,
      amountMinorUnits: command.amountMinorUnits,
      currency: command.currency,
      provider: command.provider,
      checkoutMode: command.checkoutMode,
      returnUrl: command.returnUrl,
      externalOrderRef: command.externalOrderRef,
      idempotencyKey: command.idempotencyKey,
      requestHash: command.requestHash ?? null,
      subscriptionIntervalUnit: command.subscriptionIntervalUnit,
      renewal: command.renewal,
      pageTokenHash: command.pageTokenHash ?? null,
      clientSecretHash: command.clientSecretHash ?? null,
      subscriptionId: command.subscriptionId ?? null,
      ...(command.customerEmail ? { customerEmail: command.customerEmail } : {}),
      createdAt: meta.now,
      expiresAt: command.renewal ? null : new Date(Date.parse(meta.now) + ORDER_LIFETIME_MS).toISOString(),
    },
  };
}

/**
 * CheckoutOrder: OPEN -> (REQUIRES_ACTION ->) PAID; REQUIRES_ACTION -> OPEN when the buyer uses another card; OPEN -> EXPIRED after 24 h; renewal orders OPEN ->
 * PAID | FAILED. A decline leaves a buyer's order OPEN. Repeats (create, pay, complete, expire) decide
 * nothing, so process managers and timers can re-issue them safely.
 */
export const checkoutOrderDecider: Decider<OrderCommand, OrderEvent, OrderState> = {
  initialState: () => ({ status: 'NONE' }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateOrder':
        return state.status === 'NONE' ? [createOrder(command.data, command.metadata)] : [];
      case 'StartPaymentAttempt':
        return startPaymentAttempt(command.data, state, command.metadata);
      case 'AbandonPaymentAttempt':
        if (state.status === 'NONE' || state.inFlight?.attemptId !== command.data.attemptId) return [];
        return [{ type: 'checkout.order.payment_attempt_abandoned', data: { orderId: state.orderId, attemptId: command.data.attemptId, at: command.metadata.now } }];
      case 'RequireAction':
        if (answersNoAttemptInFlight(state, command.data.attemptId) || movedNoMoneyTooLate(state, command.data, command.metadata.now)) return [];
        assertPayable(state, command.metadata.now);
        return [{ type: 'checkout.order.action_required', data: { orderId: state.orderId, card: command.data.card, ...attemptOf(command.data), at: command.metadata.now } }];
      case 'AbandonAuthentication':
        if (state.status === 'OPEN') return [];
        assertPayable(state, command.metadata.now);
        return [{ type: 'checkout.order.authentication_abandoned', data: { orderId: state.orderId, at: command.metadata.now } }];
      case 'RecordDecline': {
        if (answersNoAttemptInFlight(state, command.data.attemptId) || movedNoMoneyTooLate(state, command.data, command.metadata.now)) return [];
        assertPayable(state, command.metadata.now);
        const { card, declineCode, reason } = command.data;
        const { now } = command.metadata;
        return [{ type: 'checkout.order.payment_declined', data: { orderId: state.orderId, card, declineCode, reason, ...attemptOf(command.data), at: now } }];
      }
      case 'MarkPaid':
        return command.data.attemptId === undefined
          ? markPaid(command.data, state, command.metadata)
          : recordCharge({ ...command.data, attemptId: command.data.attemptId }, state, command.metadata);
      case 'FailRenewal': {
        if (state.status === 'FAILED') return [];
        if (answersNoAttemptInFlight(state, command.data.attemptId)) return [];
        assertPayable(state, command.metadata.now);
        if (!state.renewal) throw new Error('FailRenewal is for renewal orders only; a buyer order stays OPEN after a decline');
        const { declineCode, reason } = command.data;
        const { now } = command.metadata;
        return [
          {
            type: 'checkout.order.failed',
            data: { orderId: state.orderId, subscriptionId: state.renewal.subscriptionId, declineCode, reason, ...attemptOf(command.data), at: now },
          },
        ];
      }
      case 'Expire':
        if (state.status !== 'OPEN' && state.status !== 'REQUIRES_ACTION') return [];
        if (state.expiresAt === null || command.metadata.now < state.expiresAt) return [];
        return [{ type: 'checkout.order.expired', data: { orderId: state.orderId, at: command.metadata.now } }];
      case 'CompleteOrder':
        if (state.status !== 'PAID' || state.completed || state.payoutId !== command.data.payoutId) return [];
        return [
          {
            type: 'checkout.order.completed',
            data: {
              orderId: state.orderId,
              merchantCompanyId: state.merchantCompanyId,
              payoutId: state.payoutId,
              amountMinorUnits: state.amountMinorUnits,
              currency: state.currency,
              provider: state.provider,
              renewalOf: state.renewal?.subscriptionId ?? null,
              at: command.metadata.now,
            },
          },
        ];
      case 'RequestRefund':
        return requestRefund(command.data, state, command.metadata);
      case 'RecordRefundOutcome':
        return recordRefundOutcome(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    if (event.type === 'checkout.order.created') {
      const d = event.data;
      return {
        status: 'OPEN',
        orderId: d.orderId,
        merchantCompanyId: d.merchantCompanyId,
        amountMinorUnits: d.amountMinorUnits,
        currency: d.currency,
        provider: d.provider,
        checkoutMode: d.checkoutMode,
        subscriptionIntervalUnit: d.subscriptionIntervalUnit,
        renewal: d.renewal,
        // Legacy orders' plaintext stays in memory only, to rebuild their URLs; every check uses the hash.
        pageToken: d.pageToken ?? null,
        clientSecret: d.clientSecret ?? null,
        requestHash: d.requestHash ?? null,
        pageTokenHash: storedSecretHash(d.pageTokenHash, d.pageToken),
        clientSecretHash: storedSecretHash(d.clientSecretHash, d.clientSecret),
        subscriptionId: d.subscriptionId ?? null,
        customerEmail: d.customerEmail ?? null,
        expiresAt: d.expiresAt,
        pendingCard: null,
        payoutId: null,
        completed: false,
        inFlight: null,
        paidAttemptId: null,
        voidedAttemptIds: [],
      };
    }
    if (state.status === 'NONE') return state;
    switch (event.type) {
      case 'checkout.order.payment_attempt_started':
        return {
          ...state,
          inFlight: { attemptId: event.data.attemptId, method: event.data.method, startedAt: event.data.at },
          customerEmail: event.data.customerEmail ?? state.customerEmail ?? null,
        };
      case 'checkout.order.payment_attempt_abandoned':
        return { ...state, inFlight: null };
      case 'checkout.order.action_required':
        return { ...state, status: 'REQUIRES_ACTION', pendingCard: event.data.card, inFlight: null };
      case 'checkout.order.authentication_abandoned':
        return { ...state, status: 'OPEN', pendingCard: null };
      case 'checkout.order.payment_declined':
        return { ...state, status: 'OPEN', pendingCard: null, inFlight: null };
      case 'checkout.order.paid':
        return {
          ...state,
          status: 'PAID',
          pendingCard: null,
          payoutId: event.data.payoutId,
          inFlight: null,
          paidAttemptId: event.data.attemptId ?? null,
          paidCard: event.data.card,
        };
      case 'checkout.order.charge_voided':
        return {
          ...state,
          inFlight: state.inFlight?.attemptId === event.data.attemptId ? null : state.inFlight,
          voidedAttemptIds: [...state.voidedAttemptIds, event.data.attemptId],
        };
      case 'checkout.order.failed':
        return { ...state, status: 'FAILED', pendingCard: null, inFlight: null };
      case 'checkout.order.expired':
        return { ...state, status: 'EXPIRED', pendingCard: null, inFlight: null };
      case 'checkout.order.completed':
        return { ...state, completed: true };
      case 'checkout.order.refund_requested':
        return {
          ...state,
          refunds: { ...state.refunds, [event.data.refundId]: { amountMinorUnits: event.data.amountMinorUnits, status: 'pending', requestHash: event.data.requestHash } },
        };
      case 'checkout.order.refund_succeeded':
      case 'checkout.order.refund_failed': {
        const refund = state.refunds?.[event.data.refundId];
        if (!refund) return state;
        const status = event.type === 'checkout.order.refund_succeeded' ? 'succeeded' : 'failed';
        return { ...state, refunds: { ...state.refunds, [event.data.refundId]: { ...refund, status } } };
      }
      default:
        return assertNever(event);
    }
  },
};

type OpenOrder = Exclude<OrderState, { status: 'NONE' }>;

const attemptOf = (data: { attemptId?: string }) => (data.attemptId === undefined ? {} : { attemptId: data.attemptId });

/** An outcome that names an attempt which is no longer in flight was recorded already (or its attempt was abandoned). */
function answersNoAttemptInFlight(state: OrderState, attemptId: string | undefined): boolean {
  return attemptId !== undefined && state.status !== 'NONE' && state.inFlight?.attemptId !== attemptId;
}

/**
 * An attempt's answer that moved no money (a decline, an authentication step) on an order that can no
 * longer be paid records nothing: the expiry that closed the order also ends its attempt.
 */
function movedNoMoneyTooLate(state: OrderState, data: { attemptId?: string }, now: string): boolean {
  if (data.attemptId === undefined || state.status === 'NONE') return false;
  return (state.status !== 'OPEN' && state.status !== 'REQUIRES_ACTION') || (state.expiresAt !== null && now >= state.expiresAt);
}

/** One attempt in flight per order: a second one while the first is unanswered is refused (409), a repeat of the same attempt decides nothing. */
function startPaymentAttempt(data: Extract<OrderCommand, { type: 'StartPaymentAttempt' }>['data'], state: OrderState, meta: CommandMetadata): OrderEvent[] {
  if (state.status !== 'NONE' && state.inFlight?.attemptId === data.attemptId) return [];
  assertPayable(state, meta.now);
  if (state.inFlight) throw new CheckoutPaymentInProgressError();
  const given = data.customerEmail ? { customerEmail: data.customerEmail } : {};
  return [{ type: 'checkout.order.payment_attempt_started', data: { orderId: state.orderId, attemptId: data.attemptId, method: data.method, ...given, at: meta.now } }];
}

/** Why an order cannot take a charge captured under `attemptId` (null: it can). */
export function chargeRefusal(state: OpenOrder, attemptId: string, now: string): ChargeVoidReason | null {
  if (state.status === 'PAID') return 'ORDER_ALREADY_PAID';
  if (state.status === 'EXPIRED' || (state.expiresAt !== null && now >= state.expiresAt)) return 'ORDER_EXPIRED';
  if (state.status !== 'OPEN' && state.status !== 'REQUIRES_ACTION') return 'ORDER_NOT_PAYABLE';
  if (state.inFlight?.attemptId !== attemptId) return 'ATTEMPT_ABANDONED';
  return null;
}

/** A captured charge of an attempt: PAID, or void when the order cannot take it; a repeat decides nothing. */
function recordCharge(data: Extract<OrderCommand, { type: 'MarkPaid' }>['data'] & { attemptId: string }, state: OrderState, meta: CommandMetadata): OrderEvent[] {
  if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
  const { attemptId } = data;
  const { now } = meta;
  if (state.paidAttemptId === attemptId || state.voidedAttemptIds.includes(attemptId)) return [];
  const refusal = data.voidReason ?? chargeRefusal(state, attemptId, now);
  if (refusal === null) return markPaid(data, state, meta);
  return [
    {
      type: 'checkout.order.charge_voided',
      data: { orderId: state.orderId, attemptId, amountMinorUnits: state.amountMinorUnits, currency: state.currency, provider: state.provider, reason: refusal, at: now },
    },
  ];
}

/** PAID (a repeat decides nothing). Without an attemptId: the rule as it was before attempts were recorded. */
function markPaid(data: Extract<OrderCommand, { type: 'MarkPaid' }>['data'], state: OrderState, meta: CommandMetadata): OrderEvent[] {
  if (state.status === 'PAID') return [];
  const { now } = meta;
  assertPayable(state, now);
  const { card, payoutId, subscriptionId } = data;
  return [
    {
      type: 'checkout.order.paid',
      data: {
        orderId: state.orderId,
        merchantCompanyId: state.merchantCompanyId,
        amountMinorUnits: state.amountMinorUnits,
        currency: state.currency,
        provider: state.provider,
        card,
        payoutId,
        subscriptionId: state.renewal?.subscriptionId ?? subscriptionId,
        subscriptionIntervalUnit: state.subscriptionIntervalUnit,
        renewal: state.renewal,
        ...attemptOf(data),
        ...(state.customerEmail ? { customerEmail: state.customerEmail } : {}),
        paidAt: now,
      },
    },
  ];
}

/** The attempt in flight if it went stale by `now` (its process presumably died), else null. */
export function staleAttempt(state: OrderState, now: string): AttemptInFlight | null {
  if (state.status === 'NONE' || !state.inFlight) return null;
  return Date.parse(now) - Date.parse(state.inFlight.startedAt) >= PAYMENT_ATTEMPT_STALE_MS ? state.inFlight : null;
}

/** The card waiting for buyer authentication, or an error when the order is not waiting for it. */
export function pendingAuthentication(state: OrderState): SavedCard {
  if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
  if (state.status !== 'REQUIRES_ACTION' || !state.pendingCard) throw new CheckoutNoActionPendingError(state.status);
  return state.pendingCard;
}

/** What may still be refunded: the capture less every refund that succeeded or is still pending (a failed one gives its amount back). */
export function refundableOf(state: OpenOrder): bigint {
  const taken = Object.values(state.refunds ?? {})
    .filter((r) => r.status !== 'failed')
    .reduce((sum, r) => sum + BigInt(r.amountMinorUnits), 0n);
  return BigInt(state.amountMinorUnits) - taken;
}

/**
 * A refund of a PAID order (docs/checkout.md#refunds): never more than is still refundable; the same
 * refund again (same idempotencyKey and request) decides nothing, another request under its key is 409.
 */
function requestRefund(data: Extract<OrderCommand, { type: 'RequestRefund' }>['data'], state: OrderState, meta: CommandMetadata): OrderEvent[] {
  if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
  const existing = state.refunds?.[data.refundId];
  if (existing) {
    if (existing.requestHash !== data.requestHash) throw new IdempotencyKeyReusedError();
    return [];
  }
  if (state.status !== 'PAID') throw new CheckoutOrderNotRefundableError(state.status);
  if (BigInt(data.amountMinorUnits) <= 0n) throw new Error(`A refund needs a positive amount, got ${data.amountMinorUnits}`);
  const refundable = refundableOf(state);
  if (BigInt(data.amountMinorUnits) > refundable) throw new CheckoutRefundExceedsCapturedError(data.amountMinorUnits, refundable.toString());
  return [
    {
      type: 'checkout.order.refund_requested',
      data: {
        orderId: state.orderId,
        merchantCompanyId: state.merchantCompanyId,
        refundId: data.refundId,
        amountMinorUnits: data.amountMinorUnits,
        currency: state.currency,
        provider: state.provider,
        reason: data.reason,
        idempotencyKey: data.idempotencyKey,
        requestHash: data.requestHash,
        at: meta.now,
      },
    },
  ];
}

/** The processor's answer, recorded once against a pending refund. */
function recordRefundOutcome(data: Extract<OrderCommand, { type: 'RecordRefundOutcome' }>['data'], state: OrderState, meta: CommandMetadata): OrderEvent[] {
  if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
  const refund = state.refunds?.[data.refundId];
  if (!refund || refund.status !== 'pending') return [];
  const base = {
    orderId: state.orderId,
    merchantCompanyId: state.merchantCompanyId,
    refundId: data.refundId,
    amountMinorUnits: refund.amountMinorUnits,
    currency: state.currency,
    at: meta.now,
  };
  return data.outcome.kind === 'succeeded'
    ? [{ type: 'checkout.order.refund_succeeded', data: base }]
    : [{ type: 'checkout.order.refund_failed', data: { ...base, failureCode: data.outcome.failureCode, failureReason: data.outcome.failureReason } }];
}
