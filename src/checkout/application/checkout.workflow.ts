import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { NO_REACTION, Reaction, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { PAYOUT_STREAM_PREFIX, PayoutEvent } from '../../payouts';
import { ORDER_STREAM_PREFIX, OrderEvent } from '../domain/checkout.events';
import { checkoutOrderDecider, OrderState, PAYMENT_ATTEMPT_STALE_MS } from '../domain/checkout-order.decider';
import { periodStart } from '../domain/renewal-schedule';
import { subscriptionDecider, SubscriptionState } from '../domain/subscription.decider';
import { SUBSCRIPTION_STREAM_PREFIX, SubscriptionEvent } from '../domain/subscription.events';
import { ChargeRenewalMessage } from './charge-renewal.handler';
import { orderExpiryTimer, paymentAttemptCheckTimer, REFUND_CHECK_AFTER_MS, refundCheckTimer, renewalTimer } from './checkout.timers';
import { DebitMerchantRefundMessage } from './debit-merchant-refund.handler';
import { PayOutOrderMessage } from './pay-out-order.handler';
import { SettleRefundMessage } from './settle-refund.handler';
import { CompletePaidOutOrderMessage } from './complete-paid-out-order.handler';
import { CreditFailedPayoutMessage } from './credit-failed-payout.handler';
import { ExpireOrderMessage } from './expire-order.handler';
import { RecordRenewalDeclineMessage } from './record-renewal-decline.handler';
import { RecordRenewalMessage } from './record-renewal.handler';
import { StartSubscriptionMessage } from './start-subscription.handler';
import { SettlePaymentAttemptMessage } from './settle-payment-attempt.handler';
import { SendRenewalEmailMessage } from './send-renewal-email.handler';
import { VoidChargeMessage } from './void-charge.handler';
import { paysOutToMerchant } from '../domain/platform-merchants';

const ACTOR = 'system:checkout';
const HANDLED = new Set([
  'checkout.order.created',
  'checkout.order.payment_attempt_started',
  'checkout.order.paid',
  'checkout.order.charge_voided',
  'checkout.order.failed',
  'checkout.subscription.started',
  'checkout.subscription.renewed',
  'checkout.subscription.renewal_declined',
  'checkout.order.refund_requested',
  'checkout.order.refund_succeeded',
]);

/** What `react` may need beyond the event: the failed renewal order, or the renewed subscription. */
export type CheckoutWorkflowState = { order: OrderState } | { subscription: SubscriptionState } | null;

type Handled = OrderEvent | SubscriptionEvent | PayoutEvent;

/**
 * Checkout's process manager: a buyer order -> its expiry timer; PAID -> the merchant payout (and a
 * founding order's subscription, in case the paying request did not get that far) -> the payout
 * completes -> the order completes (`checkout.completed`); a charge the order recorded void -> voided at
 * the processor by its attempt id; a buyer's payment attempt -> a check when it goes stale (recovery by
 * key if its process died). Subscriptions: started or renewed -> the
 * next period's renewal timer; a due renewal -> a charged renewal order; its PAID or FAILED -> the
 * subscription records the renewal or the decline; a decline with a retry date -> the retry timer.
 * Refunds (issue 26): requested -> a check timer (recovery by key if its process died); succeeded -> the
 * merchant's checkout balance is debited, and the next PAID orders' payouts net it (PayOutOrder); a merchant
 * payout failed -> its money is credited back to that balance (the order stays PAID, not completed).
 */
export const checkoutWorkflow: Workflow<CheckoutWorkflowState> = {
  name: 'checkout_payments',
  streams: [ORDER_STREAM_PREFIX, PAYOUT_STREAM_PREFIX, SUBSCRIPTION_STREAM_PREFIX],
  timers: [orderExpiryTimer, renewalTimer, paymentAttemptCheckTimer, refundCheckTimer],
  handles: (event) => HANDLED.has(event.type) || ((event.type === 'payout.completed' || event.type === 'payout.failed') && (event.data as { kind?: string }).kind === 'merchant'),
  async load(input, reader) {
    if (input.kind !== 'event') return null;
    if (input.event.type === 'checkout.order.failed') return { order: (await reader.load(input.event.streamId, checkoutOrderDecider)).state };
    if (input.event.type === 'checkout.subscription.renewed') return { subscription: (await reader.load(input.event.streamId, subscriptionDecider)).state };
    return null;
  },
  react(input, state) {
    const context = workflowContext(ACTOR, input);
    if (input.kind === 'timer') {
      if (input.timer.kind === orderExpiryTimer.kind) return commands(new ExpireOrderMessage(orderExpiryTimer.payloadOf(input.timer).orderId, context));
      if (input.timer.kind === paymentAttemptCheckTimer.kind) {
        const { orderId, attemptId } = paymentAttemptCheckTimer.payloadOf(input.timer);
        return commands(new SettlePaymentAttemptMessage(orderId, attemptId, context));
      }
      if (input.timer.kind === refundCheckTimer.kind) {
        const { orderId, refundId } = refundCheckTimer.payloadOf(input.timer);
        return commands(new SettleRefundMessage(orderId, refundId, context));
      }
      return commands(new ChargeRenewalMessage(renewalTimer.payloadOf(input.timer), context));
    }
    const event = eventOf(input.event);
    switch (event.type) {
      case 'checkout.order.created':
        return event.data.expiresAt === null ? NO_REACTION : timers(orderExpiryTimer.at(event.data.expiresAt, { orderId: event.data.orderId }));
      case 'checkout.order.payment_attempt_started': {
        // A renewal's attempt is recovered by its own renewal timer firing again.
        const { orderId, attemptId, method, at } = event.data;
        if (method === 'SAVED_CARD') return NO_REACTION;
        return timers(paymentAttemptCheckTimer.at(new Date(Date.parse(at) + PAYMENT_ATTEMPT_STALE_MS).toISOString(), { orderId, attemptId }));
      }
      case 'checkout.order.paid': {
        const paid = event.data;
        // The payout nets what refunds left owing first (issue 26): PayOutOrder decides its amount.
        // An invoice's card order (issue 27) is paid to the platform itself: no merchant payout.
        const payout = paysOutToMerchant(paid.merchantCompanyId) ? [new PayOutOrderMessage(paid, context)] : [];
        if (paid.renewal) return commands(new RecordRenewalMessage(paid.renewal, paid.orderId, context), ...payout);
        return commands(new StartSubscriptionMessage(paid, context), ...payout);
      }
      case 'checkout.order.charge_voided':
        return commands(new VoidChargeMessage(event.data.provider, event.data.attemptId));
      case 'checkout.order.failed': {
        const renewal = state && 'order' in state && state.order.status !== 'NONE' ? state.order.renewal : null;
        return renewal ? commands(new RecordRenewalDeclineMessage(renewal, event.data.orderId, context)) : NO_REACTION;
      }
      case 'checkout.subscription.started': {
        const { subscriptionId, anchorAt, intervalUnit } = event.data;
        return timers(renewalTimer.at(periodStart(new Date(anchorAt), intervalUnit, 1).toISOString(), { subscriptionId, periodIndex: 1, attempt: 1 }));
      }
      case 'checkout.subscription.renewed': {
        const subscription = state && 'subscription' in state ? state.subscription : null;
        if (!subscription || subscription.status === 'NONE') return NO_REACTION;
        const periodIndex = event.data.periodIndex + 1;
        return {
          // The buyer's renewal email (issue 29); its id is fixed per period, so a replay sends it once.
          commands: [new SendRenewalEmailMessage(event)],
          timers: [
            renewalTimer.at(periodStart(new Date(subscription.anchorAt), subscription.intervalUnit, periodIndex).toISOString(), {
              subscriptionId: subscription.subscriptionId,
              periodIndex,
              attempt: 1,
            }),
          ],
        };
      }
      case 'checkout.subscription.renewal_declined': {
        const { subscriptionId, periodIndex, attempt, nextAttemptAt } = event.data;
        const email = new SendRenewalEmailMessage(event);
        return nextAttemptAt === null ? commands(email) : { commands: [email], timers: [renewalTimer.at(nextAttemptAt, { subscriptionId, periodIndex, attempt: attempt + 1 })] };
      }
      case 'checkout.order.refund_requested': {
        const { orderId, refundId, at } = event.data;
        return timers(refundCheckTimer.at(new Date(Date.parse(at) + REFUND_CHECK_AFTER_MS).toISOString(), { orderId, refundId }));
      }
      case 'checkout.order.refund_succeeded':
        return commands(new DebitMerchantRefundMessage(event.data, context));
      case 'payout.completed': {
        const ref = event.data;
        return ref.kind === 'merchant' ? commands(new CompletePaidOutOrderMessage(ref.orderId, ref.payoutId, context)) : NO_REACTION;
      }
      case 'payout.failed': {
        // The payout's money is back in the merchant's balance: the netting stream records it (issue 26).
        const ref = event.data;
        return ref.kind === 'merchant' ? commands(new CreditFailedPayoutMessage(ref.orderId, ref.payoutId, context)) : NO_REACTION;
      }
      default:
        return NO_REACTION;
    }
  },
};

const eventOf = (recorded: RecordedEvent) => ({ type: recorded.type, data: recorded.data }) as Handled;
const commands = (...list: Reaction['commands']): Reaction => ({ commands: list, timers: [] });
const timers = (...list: Reaction['timers']): Reaction => ({ commands: [], timers: list });
