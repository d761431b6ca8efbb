import { assertNever, Decider } from '../../platform/domain/decider';
import { CheckoutSubscriptionNotFoundError } from './checkout.errors';
import { DECLINE_RETRY_DELAYS_MS, MAX_CONSECUTIVE_DECLINES, periodStart } from './renewal-schedule';
import { CancellationReason, SubscriptionEvent, SubscriptionStarted, SubscriptionStatus } from './subscription.events';
import { CommandMetadata } from '../../platform/domain/command';

export type SubscriptionCommand =
  | { type: 'StartSubscription'; data: Omit<SubscriptionStarted['data'], 'currentPeriodStart' | 'currentPeriodEnd' | 'startedAt'>; metadata: CommandMetadata }
  | { type: 'StartRenewalAttempt'; data: { periodIndex: number; attempt: number; orderId: string; attemptId: string }; metadata: CommandMetadata }
  | { type: 'RecordRenewal'; data: { periodIndex: number; orderId: string }; metadata: CommandMetadata }
  /** The renewal's charge was captured: the period is recorded unless the subscription was cancelled first (then the charge is voided). */
  | { type: 'AcceptRenewalCharge'; data: { periodIndex: number; orderId: string }; metadata: CommandMetadata }
  | { type: 'RecordRenewalDecline'; data: { periodIndex: number; attempt: number; orderId: string }; metadata: CommandMetadata }
  | { type: 'CancelSubscription'; data: { reason: CancellationReason }; metadata: CommandMetadata };

/** What every subscription carries from its start on. */
export type SubscriptionData = Pick<
  SubscriptionStarted['data'],
  'subscriptionId' | 'merchantCompanyId' | 'foundingOrderId' | 'intervalUnit' | 'amountMinorUnits' | 'currency' | 'provider' | 'card' | 'anchorAt' | 'customerEmail'
>;

export type SubscriptionState =
  | { status: 'NONE' }
  | (SubscriptionData & {
      status: SubscriptionStatus;
      /** Index of the current (last paid) period; 0 is the founding order's. */
      periodIndex: number;
      consecutiveDeclines: number;
      /** Last declined attempt for the period after `periodIndex`, so a repeated decline counts once. */
      lastDeclinedAttempt: number;
      /** The renewal charge recorded as started and not yet answered by a renewal, a decline or a cancel. */
      renewalAttemptId: string | null;
    });

/**
 * Subscription: ACTIVE until the buyer cancels or the 3rd consecutive renewal decline cancels it
 * (PAYMENT_FAILED). A decline schedules the next attempt 1 day, then 3 days later; a paid renewal resets
 * the count. Renewal dates are anchored to the founding payment (month-end clamped, see periodStart).
 */
export const subscriptionDecider: Decider<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  initialState: () => ({ status: 'NONE' }),
  decide(command, state) {
    switch (command.type) {
      case 'StartSubscription': {
        if (state.status !== 'NONE') return [];
        const { data } = command;
        const anchor = new Date(data.anchorAt);
        return [
          {
            type: 'checkout.subscription.started',
            data: {
              ...data,
              currentPeriodStart: periodStart(anchor, data.intervalUnit, 0).toISOString(),
              currentPeriodEnd: periodStart(anchor, data.intervalUnit, 1).toISOString(),
              startedAt: command.metadata.now,
            },
          },
        ];
      }
      case 'StartRenewalAttempt':
        return startRenewalAttempt(command.data, state, command.metadata);
      case 'RecordRenewal':
        return recordRenewal(command.data, state, command.metadata);
      case 'AcceptRenewalCharge':
        if (state.status === 'CANCELLED') return [];
        return recordRenewal(command.data, state, command.metadata);
      case 'RecordRenewalDecline': {
        if (state.status === 'NONE') throw new CheckoutSubscriptionNotFoundError();
        const { periodIndex, attempt, orderId } = command.data;
        const { now } = command.metadata;
        if (state.status === 'CANCELLED' || periodIndex <= state.periodIndex || attempt <= state.lastDeclinedAttempt) return [];
        const consecutiveDeclines = state.consecutiveDeclines + 1;
        const cancels = consecutiveDeclines >= MAX_CONSECUTIVE_DECLINES;
        const delay = DECLINE_RETRY_DELAYS_MS[consecutiveDeclines - 1];
        const nextAttemptAt = cancels || delay === undefined ? null : new Date(Date.parse(now) + delay).toISOString();
        const declined: SubscriptionEvent = {
          type: 'checkout.subscription.renewal_declined',
          data: { subscriptionId: state.subscriptionId, orderId, periodIndex, attempt, consecutiveDeclines, nextAttemptAt, at: now },
        };
        if (!cancels) return [declined];
        return [declined, { type: 'checkout.subscription.cancelled', data: { subscriptionId: state.subscriptionId, reason: 'PAYMENT_FAILED', at: now } }];
      }
      case 'CancelSubscription':
        if (state.status === 'NONE') throw new CheckoutSubscriptionNotFoundError();
        if (state.status === 'CANCELLED') return [];
        return [{ type: 'checkout.subscription.cancelled', data: { subscriptionId: state.subscriptionId, reason: command.data.reason, at: command.metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    if (event.type === 'checkout.subscription.started') {
      const { currentPeriodStart: _s, currentPeriodEnd: _e, startedAt: _a, ...data } = event.data;
      return { ...data, customerEmail: data.customerEmail ?? null, status: 'ACTIVE', periodIndex: 0, consecutiveDeclines: 0, lastDeclinedAttempt: 0, renewalAttemptId: null };
    }
    if (state.status === 'NONE') return state;
    switch (event.type) {
      case 'checkout.subscription.renewal_attempt_started':
        return { ...state, renewalAttemptId: event.data.attemptId };
      case 'checkout.subscription.renewed':
        return { ...state, periodIndex: event.data.periodIndex, consecutiveDeclines: 0, lastDeclinedAttempt: 0, renewalAttemptId: null };
      case 'checkout.subscription.renewal_declined':
        return { ...state, consecutiveDeclines: event.data.consecutiveDeclines, lastDeclinedAttempt: event.data.attempt, renewalAttemptId: null };
      case 'checkout.subscription.cancelled':
        return { ...state, status: 'CANCELLED' };
      default:
        return assertNever(event);
    }
  },
};

/**
 * The renewal charge is about to be made: recorded once per attempt id; nothing on a CANCELLED subscription
 * or for a period already paid (the caller reads the state it returns and charges nothing).
 */
function startRenewalAttempt(data: Extract<SubscriptionCommand, { type: 'StartRenewalAttempt' }>['data'], state: SubscriptionState, meta: CommandMetadata): SubscriptionEvent[] {
  if (state.status === 'NONE') throw new CheckoutSubscriptionNotFoundError();
  const { periodIndex, attempt, orderId, attemptId } = data;
  const { now } = meta;
  if (state.status === 'CANCELLED' || periodIndex <= state.periodIndex || state.renewalAttemptId === attemptId) return [];
  return [{ type: 'checkout.subscription.renewal_attempt_started', data: { subscriptionId: state.subscriptionId, orderId, attemptId, periodIndex, attempt, at: now } }];
}

/** The subscription moves to a paid period (a repeat decides nothing). */
function recordRenewal(data: { periodIndex: number; orderId: string }, state: SubscriptionState, meta: CommandMetadata): SubscriptionEvent[] {
  if (state.status === 'NONE') throw new CheckoutSubscriptionNotFoundError();
  const { periodIndex, orderId } = data;
  const { now } = meta;
  if (periodIndex <= state.periodIndex) return [];
  if (periodIndex !== state.periodIndex + 1) throw new Error(`Renewal of period ${periodIndex} after period ${state.periodIndex}`);
  const anchor = new Date(state.anchorAt);
  return [
    {
      type: 'checkout.subscription.renewed',
      data: {
        subscriptionId: state.subscriptionId,
        orderId,
        periodIndex,
        currentPeriodStart: periodStart(anchor, state.intervalUnit, periodIndex).toISOString(),
        currentPeriodEnd: periodStart(anchor, state.intervalUnit, periodIndex + 1).toISOString(),
        at: now,
      },
    },
  ];
}
