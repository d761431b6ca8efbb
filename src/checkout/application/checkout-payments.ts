import { Written } from '../../platform/projections/read-your-writes';
import { Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { EventStore } from '../../platform/event-store/event-store.port';
import { deterministicId } from '../../platform/ids/ids';
import { NewTimer, Timer } from '../../platform/read-store/read-store.port';
import { TimerWorker } from '../../platform/timers/timer-worker';
import { AppLogger } from '../../platform/logging/app-logger';
import { payoutDecider } from '../../payouts/domain/payout.decider';
import { PayoutRequested, payoutStreamId } from '../../payouts/domain/payout.events';
import { OrderPaid, orderStreamId, RenewalRef } from '../domain/checkout.events';
import { CardDeclinedError } from '../domain/checkout.errors';
import { checkoutOrderDecider, OrderState } from '../domain/checkout-order.decider';
import { ChargeOutcome, PaymentProcessors } from '../domain/payment-processor.port';
import { periodStart } from '../domain/renewal-schedule';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';

export const ORDER_EXPIRY_TIMER = 'checkout.order_expiry';
export const RENEWAL_TIMER = 'checkout.renewal';

export const merchantPayoutId = (orderId: string) => deterministicId('po', orderId, 'merchant');
export const foundedSubscriptionId = (orderId: string) => deterministicId('sub', orderId);
export const renewalOrderId = (r: RenewalRef) => deterministicId('ord', r.subscriptionId, 'renewal', String(r.periodIndex), String(r.attempt));
const renewalTimerId = (r: RenewalRef) => `${RENEWAL_TIMER}:${r.subscriptionId}:${r.periodIndex}:${r.attempt}`;

export interface PaymentResult {
  status: 'PAID' | 'REQUIRES_ACTION';
  /** The order and the subscription it may have started, for read-your-writes. */
  written: Written[];
}

/**
 * The money steps of Checkout, shared by the HTTP handlers, the process manager and the timers. Every
 * step is idempotent: deterministic ids (payout, subscription, renewal order, timers) and deciders that
 * decide nothing on a repeat.
 */
export class CheckoutPayments {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly events: EventStore,
    private readonly timers: TimerWorker,
    private readonly clock: Clock,
    private readonly processors: PaymentProcessors,
    private readonly logger: AppLogger,
  ) {}

  now(): string {
    return this.clock.now().toISOString();
  }

  loadOrder(orderId: string) {
    return this.aggregates.load(orderStreamId(orderId), checkoutOrderDecider);
  }

  processorFor(state: Exclude<OrderState, { status: 'NONE' }>) {
    return this.processors.for(state.provider);
  }

  /**
   * Records what the processor answered for a buyer's (on-session) payment: PAID (and the subscription
   * it founds), REQUIRES_ACTION, or a decline, which is recorded and then thrown as CARD_DECLINED.
   */
  async recordBuyerOutcome(orderId: string, outcome: ChargeOutcome, context: CommandContext): Promise<PaymentResult> {
    const stream = orderStreamId(orderId);
    const now = this.now();
    switch (outcome.kind) {
      case 'succeeded': {
        const { state } = await this.loadOrder(orderId);
        const subscriptionId = state.status !== 'NONE' && state.subscriptionIntervalUnit && !state.renewal ? foundedSubscriptionId(orderId) : null;
        const paid = await this.aggregates.handle(stream, checkoutOrderDecider, { type: 'MarkPaid', data: { card: outcome.card, payoutId: merchantPayoutId(orderId), subscriptionId, now } }, context);
        const event = paid.events[0];
        const subscription = event?.type === 'checkout.order.paid' ? await this.startSubscription(event.data, context) : null;
        return { status: 'PAID', written: subscription ? [paid, subscription] : [paid] };
      }
      case 'requires_action': {
        const result = await this.aggregates.handle(stream, checkoutOrderDecider, { type: 'RequireAction', data: { card: outcome.card, now } }, context);
        return { status: 'REQUIRES_ACTION', written: [result] };
      }
      case 'declined':
        await this.aggregates.handle(stream, checkoutOrderDecider, { type: 'RecordDecline', data: { card: outcome.card, declineCode: outcome.declineCode, reason: outcome.reason, now } }, context);
        throw new CardDeclinedError(outcome.declineCode, outcome.reason);
    }
  }

  /** A founding order paid with an opt-in: the subscription starts, anchored at the payment, and its first renewal is scheduled. */
  async startSubscription(paid: OrderPaid['data'], context: CommandContext): Promise<Written | null> {
    if (!paid.subscriptionId || !paid.subscriptionIntervalUnit || paid.renewal || !paid.card) return null;
    const result = await this.aggregates.handle(
      subscriptionStreamId(paid.subscriptionId),
      subscriptionDecider,
      {
        type: 'StartSubscription',
        data: {
          subscriptionId: paid.subscriptionId,
          merchantCompanyId: paid.merchantCompanyId,
          foundingOrderId: paid.orderId,
          intervalUnit: paid.subscriptionIntervalUnit,
          amountMinorUnits: paid.amountMinorUnits,
          currency: paid.currency,
          provider: paid.provider,
          card: paid.card,
          anchorAt: paid.paidAt,
          now: this.now(),
        },
      },
      context,
    );
    await this.scheduleRenewal({ subscriptionId: paid.subscriptionId, periodIndex: 1, attempt: 1 }, periodStart(new Date(paid.paidAt), paid.subscriptionIntervalUnit, 1).toISOString());
    return result;
  }

  /** PAID -> the merchant's payout (a new payout kind on the existing payout aggregate). */
  async requestMerchantPayout(paid: OrderPaid['data'], context: CommandContext): Promise<void> {
    await this.aggregates.handle(
      payoutStreamId(paid.payoutId),
      payoutDecider,
      {
        type: 'RequestPayout',
        data: {
          payoutId: paid.payoutId,
          kind: 'merchant',
          splitId: '',
          distributionId: null,
          orderId: paid.orderId,
          amountCents: paid.amountMinorUnits,
          currency: paid.currency,
          destination: paid.merchantCompanyId,
          attempt: 1,
          now: this.now(),
        },
      },
      context,
    );
  }

  /** The merchant payout completed: the order completes, which is what `checkout.completed` reports. */
  async merchantPayoutCompleted(payoutId: string, context: CommandContext): Promise<void> {
    const requested = (await this.events.readStream(payoutStreamId(payoutId))).find((e) => e.type === 'payout.requested');
    const orderId = (requested?.data as PayoutRequested['data'] | undefined)?.orderId;
    if (!orderId) {
      this.logger.warn({ payoutId }, 'merchant payout without an order; nothing to complete');
      return;
    }
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, { type: 'CompleteOrder', data: { payoutId, now: this.now() } }, context);
  }

  expiryTimer(orderId: string, expiresAt: string): NewTimer {
    return { id: `${ORDER_EXPIRY_TIMER}:${orderId}`, kind: ORDER_EXPIRY_TIMER, dueAt: expiresAt, payload: { orderId } };
  }

  private async scheduleRenewal(renewal: RenewalRef, dueAt: string): Promise<void> {
    await this.timers.schedule({ id: renewalTimerId(renewal), kind: RENEWAL_TIMER, dueAt, payload: { ...renewal } });
  }

  onExpiryTimer = async (timer: Timer): Promise<void> => {
    const { orderId } = timer.payload as { orderId: string };
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, { type: 'Expire', data: { now: this.now() } }, { actor: 'system:checkout', correlationId: timer.id });
  };

  /**
   * A renewal is due: a new order for the period, charged off-session on the saved card. Paid: the
   * subscription moves to the period and the next renewal is scheduled. Declined: the order FAILS, the
   * subscription counts the decline and either schedules the retry (1 day, then 3 days) or cancels.
   */
  onRenewalTimer = async (timer: Timer): Promise<void> => {
    const renewal = timer.payload as unknown as RenewalRef;
    const context: CommandContext = { actor: 'system:checkout-renewals', correlationId: timer.id };
    const subStream = subscriptionStreamId(renewal.subscriptionId);
    const { state: sub } = await this.aggregates.load(subStream, subscriptionDecider);
    if (sub.status === 'NONE' || sub.status === 'CANCELLED') return;
    if (renewal.periodIndex <= sub.periodIndex) return;

    const orderId = renewalOrderId(renewal);
    const founding = await this.loadOrder(sub.foundingOrderId);
    if (founding.state.status === 'NONE') throw new Error(`founding order ${sub.foundingOrderId} of ${sub.subscriptionId} not found`);
    await this.aggregates.handle(
      orderStreamId(orderId),
      checkoutOrderDecider,
      {
        type: 'CreateOrder',
        data: {
          orderId,
          merchantCompanyId: sub.merchantCompanyId,
          amountMinorUnits: sub.amountMinorUnits,
          currency: sub.currency,
          provider: sub.provider,
          checkoutMode: founding.state.checkoutMode,
          returnUrl: (await this.returnUrlOf(sub.foundingOrderId)) ?? '',
          externalOrderRef: null,
          idempotencyKey: null,
          subscriptionIntervalUnit: sub.intervalUnit,
          renewal,
          pageToken: null,
          clientSecret: null,
          now: this.now(),
        },
      },
      context,
    );

    let { state: order } = await this.loadOrder(orderId);
    if (order.status === 'OPEN') {
      const outcome = await this.processors.for(sub.provider).chargeSavedCard({ orderId, amountMinorUnits: sub.amountMinorUnits, currency: sub.currency, now: this.now() }, sub.card);
      const now = this.now();
      const command =
        outcome.kind === 'succeeded'
          ? ({ type: 'MarkPaid', data: { card: sub.card, payoutId: merchantPayoutId(orderId), subscriptionId: sub.subscriptionId, now } } as const)
          : ({
              type: 'FailRenewal',
              data: outcome.kind === 'declined' ? { declineCode: outcome.declineCode, reason: outcome.reason, now } : { declineCode: 'authentication_required', reason: 'The card needs the buyer to authenticate', now },
            } as const);
      order = (await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, command, context)).state;
    }

    if (order.status === 'PAID') {
      await this.aggregates.handle(subStream, subscriptionDecider, { type: 'RecordRenewal', data: { periodIndex: renewal.periodIndex, orderId, now: this.now() } }, context);
      const next = { subscriptionId: renewal.subscriptionId, periodIndex: renewal.periodIndex + 1, attempt: 1 };
      await this.scheduleRenewal(next, periodStart(new Date(sub.anchorAt), sub.intervalUnit, next.periodIndex).toISOString());
      return;
    }
    if (order.status === 'FAILED') {
      const result = await this.aggregates.handle(
        subStream,
        subscriptionDecider,
        { type: 'RecordRenewalDecline', data: { periodIndex: renewal.periodIndex, attempt: renewal.attempt, orderId, now: this.now() } },
        context,
      );
      const declined = result.events.find((e) => e.type === 'checkout.subscription.renewal_declined');
      if (declined?.type === 'checkout.subscription.renewal_declined' && declined.data.nextAttemptAt) {
        await this.scheduleRenewal({ ...renewal, attempt: renewal.attempt + 1 }, declined.data.nextAttemptAt);
      }
    }
  };

  private async returnUrlOf(orderId: string): Promise<string | null> {
    const created = (await this.events.readStream(orderStreamId(orderId))).find((e) => e.type === 'checkout.order.created');
    return (created?.data as { returnUrl?: string } | undefined)?.returnUrl ?? null;
  }
}
