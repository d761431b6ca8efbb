import { Inject, Injectable } from '@nestjs/common';
import { Written } from '../../platform/projections/read-your-writes';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { deterministicId } from '../../platform/ids/ids';
import { OrderPaid, orderStreamId, RenewalRef } from '../domain/checkout.events';
import { CardDeclinedError } from '../domain/checkout.errors';
import { checkoutOrderDecider, OrderState } from '../domain/checkout-order.decider';
import { ChargeOutcome, PAYMENT_PROCESSORS, PaymentProcessors } from '../domain/payment-processor.port';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';

export const merchantPayoutId = (orderId: string) => deterministicId('po', orderId, 'merchant');
/** Only for orders created before the subscription id was recorded at creation (it is guessable from the order id). */
export const foundedSubscriptionId = (orderId: string) => deterministicId('sub', orderId);
export const renewalOrderId = (r: RenewalRef) => deterministicId('ord', r.subscriptionId, 'renewal', String(r.periodIndex), String(r.attempt));

export interface PaymentResult {
  status: 'PAID' | 'REQUIRES_ACTION';
  /** The order and the subscription it may have started, for read-your-writes. */
  written: Written[];
}

/**
 * The buyer's payment steps, shared by the pay handlers and the start-subscription command. Every
 * step is idempotent: deterministic ids (payout, subscription) and deciders that decide nothing on a repeat.
 */
@Injectable()
export class CheckoutPayments {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSORS) private readonly processors: PaymentProcessors,
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
        const subscriptionId = state.status !== 'NONE' && state.subscriptionIntervalUnit && !state.renewal ? (state.subscriptionId ?? foundedSubscriptionId(orderId)) : null;
        const paid = await this.aggregates.handle(
          stream,
          checkoutOrderDecider,
          { type: 'MarkPaid', data: { card: outcome.card, payoutId: merchantPayoutId(orderId), subscriptionId, now } },
          context,
        );
        const event = paid.events[0];
        const subscription = event?.type === 'checkout.order.paid' ? await this.startSubscription(event.data, context) : null;
        return { status: 'PAID', written: subscription ? [paid, subscription] : [paid] };
      }
      case 'requires_action': {
        const result = await this.aggregates.handle(stream, checkoutOrderDecider, { type: 'RequireAction', data: { card: outcome.card, now } }, context);
        return { status: 'REQUIRES_ACTION', written: [result] };
      }
      case 'declined':
        await this.aggregates.handle(
          stream,
          checkoutOrderDecider,
          { type: 'RecordDecline', data: { card: outcome.card, declineCode: outcome.declineCode, reason: outcome.reason, now } },
          context,
        );
        throw new CardDeclinedError(outcome.declineCode, outcome.reason);
    }
  }

  /** A founding order paid with an opt-in: the subscription starts, anchored at the payment (the workflow then schedules its first renewal). */
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
    return result;
  }
}
