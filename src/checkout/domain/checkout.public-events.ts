import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import { ORDER_EVENT_TYPES, type OrderEvent, type Provider } from './checkout.events';

/**
 * The `checkout.completed` webhook payload (docs/webhooks.md#checkoutcompleted-sent-today):
 * subscriptionId only on a renewal's delivery.
 */
export type CheckoutCompletedPayload = { payoutId: string; amount: string; currency: string; provider: Provider; subscriptionId?: string };

/** The `checkout.refunded` webhook payload (issue 26, docs/webhooks.md): a refund's outcome at the processor. */
export type CheckoutRefundedPayload = { orderId: string; refundId: string; amount: string; currency: string; status: 'succeeded' | 'failed' };

/** The Checkout events other parties see as webhooks; each goes to the merchant's company. */
export type CheckoutPublicEvent =
  { type: 'checkout.completed'; companyId: string; data: CheckoutCompletedPayload } | { type: 'checkout.refunded'; companyId: string; data: CheckoutRefundedPayload };

/** The public event a recorded order event becomes (checkout.order.completed, a refund's outcome), or null. */
export function checkoutPublicEvent(recorded: Pick<RecordedEvent, 'type' | 'data'>): CheckoutPublicEvent | null {
  if (!ORDER_EVENT_TYPES.has(recorded.type)) return null;
  const event = { type: recorded.type, data: recorded.data } as OrderEvent;
  if (event.type === 'checkout.order.refund_succeeded' || event.type === 'checkout.order.refund_failed') {
    const { merchantCompanyId, orderId, refundId, amountMinorUnits, currency } = event.data;
    const status = event.type === 'checkout.order.refund_succeeded' ? 'succeeded' : 'failed';
    return { type: 'checkout.refunded', companyId: merchantCompanyId, data: { orderId, refundId, amount: amountMinorUnits, currency, status } };
  }
  if (event.type !== 'checkout.order.completed') return null;
  const { merchantCompanyId, payoutId, amountMinorUnits, currency, provider, renewalOf } = event.data;
  return {
    type: 'checkout.completed',
    companyId: merchantCompanyId,
    data: { payoutId, amount: amountMinorUnits, currency, provider, ...(renewalOf ? { subscriptionId: renewalOf } : {}) },
  };
}
