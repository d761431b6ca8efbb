import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { EventProcessor, ProcessorEffects } from '../../platform/projections/projection';
import { PAYOUT_STREAM_PREFIX, PayoutCompleted } from '../../payouts/domain/payout.events';
import { ORDER_STREAM_PREFIX, OrderCreated, OrderPaid } from '../domain/checkout.events';
import { CheckoutPayments } from './checkout-payments';

/**
 * Checkout's process manager: a new buyer order -> its 24 h expiry timer; a PAID order -> the merchant payout (and, for a founding order, its
 * subscription, in case the paying request did not get that far) -> the payout completes -> the order
 * completes (the event behind `checkout.completed`).
 */
export class CheckoutProcessor implements EventProcessor {
  readonly name = 'checkout_payments';
  readonly streams = [ORDER_STREAM_PREFIX, PAYOUT_STREAM_PREFIX];

  constructor(private readonly payments: CheckoutPayments) {}

  handles(event: RecordedEvent): boolean {
    return event.type === 'checkout.order.created' || event.type === 'checkout.order.paid' || (event.type === 'payout.completed' && (event.data as { kind?: string }).kind === 'merchant');
  }

  async process(event: RecordedEvent, effects: ProcessorEffects): Promise<void> {
    if (event.type === 'checkout.order.created') {
      const { orderId, expiresAt } = (event as unknown as OrderCreated).data;
      if (expiresAt !== null) effects.scheduleTimer(this.payments.expiryTimer(orderId, expiresAt));
      return;
    }
    const context: CommandContext = { actor: 'system:checkout', correlationId: event.metadata.correlationId, causationId: event.id };
    if (event.type === 'checkout.order.paid') {
      const paid = (event as unknown as OrderPaid).data;
      await this.payments.startSubscription(paid, context);
      await this.payments.requestMerchantPayout(paid, context);
      return;
    }
    await this.payments.merchantPayoutCompleted((event as unknown as PayoutCompleted).data.payoutId, context);
  }
}
