import { assertNever, Decider } from '../../platform/domain/decider';
import { sha256Hex } from '../../platform/ids/ids';
import { CheckoutMode, IntervalUnit, OrderCreated, OrderEvent, OrderStatus, Provider, SavedCard } from './checkout.events';
import {
  CheckoutEmbeddedNeedsCardError,
  CheckoutNoActionPendingError,
  CheckoutOrderNotFoundError,
  CheckoutOrderNotPayableError,
  CheckoutSubscriptionNeedsCardError,
} from './checkout.errors';

export const ORDER_LIFETIME_MS = 24 * 3_600_000;

export type OrderCommand =
  | { type: 'CreateOrder'; data: Omit<OrderCreated['data'], 'createdAt' | 'expiresAt'> & { now: string } }
  | { type: 'RequireAction'; data: { card: SavedCard; now: string } }
  | { type: 'AbandonAuthentication'; data: { now: string } }
  | { type: 'RecordDecline'; data: { card: { brand: string; last4: string } | null; declineCode: string; reason: string; now: string } }
  | { type: 'MarkPaid'; data: { card: SavedCard | null; payoutId: string; subscriptionId: string | null; now: string } }
  | { type: 'FailRenewal'; data: { declineCode: string; reason: string; now: string } }
  | { type: 'Expire'; data: { now: string } }
  | { type: 'CompleteOrder'; data: { payoutId: string; now: string } };

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
};

export type OrderState = { status: 'NONE' } | (OrderData & { status: OrderStatus; pendingCard: SavedCard | null; payoutId: string | null; completed: boolean });

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
function createOrder(command: Extract<OrderCommand, { type: 'CreateOrder' }>['data']): OrderCreated {
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
      createdAt: command.now,
      expiresAt: command.renewal ? null : new Date(Date.parse(command.now) + ORDER_LIFETIME_MS).toISOString(),
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
        return state.status === 'NONE' ? [createOrder(command.data)] : [];
      case 'RequireAction':
        assertPayable(state, command.data.now);
        return [{ type: 'checkout.order.action_required', data: { orderId: state.orderId, card: command.data.card, at: command.data.now } }];
      case 'AbandonAuthentication':
        if (state.status === 'OPEN') return [];
        assertPayable(state, command.data.now);
        return [{ type: 'checkout.order.authentication_abandoned', data: { orderId: state.orderId, at: command.data.now } }];
      case 'RecordDecline': {
        assertPayable(state, command.data.now);
        const { card, declineCode, reason, now } = command.data;
        return [{ type: 'checkout.order.payment_declined', data: { orderId: state.orderId, card, declineCode, reason, at: now } }];
      }
      case 'MarkPaid': {
        if (state.status === 'PAID') return [];
        assertPayable(state, command.data.now);
        const { card, payoutId, subscriptionId, now } = command.data;
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
              paidAt: now,
            },
          },
        ];
      }
      case 'FailRenewal': {
        if (state.status === 'FAILED') return [];
        assertPayable(state, command.data.now);
        if (!state.renewal) throw new Error('FailRenewal is for renewal orders only; a buyer order stays OPEN after a decline');
        const { declineCode, reason, now } = command.data;
        return [{ type: 'checkout.order.failed', data: { orderId: state.orderId, subscriptionId: state.renewal.subscriptionId, declineCode, reason, at: now } }];
      }
      case 'Expire':
        if (state.status !== 'OPEN' && state.status !== 'REQUIRES_ACTION') return [];
        if (state.expiresAt === null || command.data.now < state.expiresAt) return [];
        return [{ type: 'checkout.order.expired', data: { orderId: state.orderId, at: command.data.now } }];
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
              at: command.data.now,
            },
          },
        ];
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
        expiresAt: d.expiresAt,
        pendingCard: null,
        payoutId: null,
        completed: false,
      };
    }
    if (state.status === 'NONE') return state;
    switch (event.type) {
      case 'checkout.order.action_required':
        return { ...state, status: 'REQUIRES_ACTION', pendingCard: event.data.card };
      case 'checkout.order.authentication_abandoned':
      case 'checkout.order.payment_declined':
        return { ...state, status: 'OPEN', pendingCard: null };
      case 'checkout.order.paid':
        return { ...state, status: 'PAID', pendingCard: null, payoutId: event.data.payoutId };
      case 'checkout.order.failed':
        return { ...state, status: 'FAILED', pendingCard: null };
      case 'checkout.order.expired':
        return { ...state, status: 'EXPIRED', pendingCard: null };
      case 'checkout.order.completed':
        return { ...state, completed: true };
      default:
        return assertNever(event);
    }
  },
};

/** The card waiting for buyer authentication, or an error when the order is not waiting for it. */
export function pendingAuthentication(state: OrderState): SavedCard {
  if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
  if (state.status !== 'REQUIRES_ACTION' || !state.pendingCard) throw new CheckoutNoActionPendingError(state.status);
  return state.pendingCard;
}
