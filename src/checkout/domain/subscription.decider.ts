import { assertNever, Decider } from '../../platform/domain/decider';
import { CheckoutSubscriptionNotFoundError } from './checkout.errors';
import { DECLINE_RETRY_DELAYS_MS, MAX_CONSECUTIVE_DECLINES, periodStart } from './renewal-schedule';
import { CancellationReason, SubscriptionEvent, SubscriptionStarted, SubscriptionStatus } from './subscription.events';

export type SubscriptionCommand =
  | { type: 'StartSubscription'; data: Omit<SubscriptionStarted['data'], 'currentPeriodStart' | 'currentPeriodEnd' | 'startedAt'> & { now: string } }
  | { type: 'RecordRenewal'; data: { periodIndex: number; orderId: string; now: string } }
  | { type: 'RecordRenewalDecline'; data: { periodIndex: number; attempt: number; orderId: string; now: string } }
  | { type: 'CancelSubscription'; data: { reason: CancellationReason; now: string } };

/** What every subscription carries from its start on. */
export type SubscriptionData = Pick<
  SubscriptionStarted['data'],
  'subscriptionId' | 'merchantCompanyId' | 'foundingOrderId' | 'intervalUnit' | 'amountMinorUnits' | 'currency' | 'provider' | 'card' | 'anchorAt'
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
        const { now, ...data } = command.data;
        const anchor = new Date(data.anchorAt);
        return [
          {
            type: 'checkout.subscription.started',
            data: {
              ...data,
              currentPeriodStart: periodStart(anchor, data.intervalUnit, 0).toISOString(),
              currentPeriodEnd: periodStart(anchor, data.intervalUnit, 1).toISOString(),
              startedAt: now,
            },
          },
        ];
      }
      case 'RecordRenewal': {
        if (state.status === 'NONE') throw new CheckoutSubscriptionNotFoundError();
        const { periodIndex, orderId, now } = command.data;
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
      case 'RecordRenewalDecline': {
        if (state.status === 'NONE') throw new CheckoutSubscriptionNotFoundError();
        const { periodIndex, attempt, orderId, now } = command.data;
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
        return [{ type: 'checkout.subscription.cancelled', data: { subscriptionId: state.subscriptionId, reason: command.data.reason, at: command.data.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    if (event.type === 'checkout.subscription.started') {
      const { currentPeriodStart: _s, currentPeriodEnd: _e, startedAt: _a, ...data } = event.data;
      return { ...data, status: 'ACTIVE', periodIndex: 0, consecutiveDeclines: 0, lastDeclinedAttempt: 0 };
    }
    if (state.status === 'NONE') return state;
    switch (event.type) {
      case 'checkout.subscription.renewed':
        return { ...state, periodIndex: event.data.periodIndex, consecutiveDeclines: 0, lastDeclinedAttempt: 0 };
      case 'checkout.subscription.renewal_declined':
        return { ...state, consecutiveDeclines: event.data.consecutiveDeclines, lastDeclinedAttempt: event.data.attempt };
      case 'checkout.subscription.cancelled':
        return { ...state, status: 'CANCELLED' };
      default:
        return assertNever(event);
    }
  },
};
