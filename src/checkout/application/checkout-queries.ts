import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { company } from '../../identity';
import { orderStreamId } from '../domain/checkout.events';
import { CheckoutOrderNotFoundError, CheckoutSubscriptionNotFoundError, PaymentLinkNotFoundError } from '../domain/checkout.errors';
import {
  CHECKOUT_ORDERS,
  CHECKOUT_REFUNDS,
  RefundView,
  CHECKOUT_SUBSCRIPTIONS,
  OrderView,
  PAYMENT_LINK_ORDER_REF,
  PAYMENT_LINKS,
  PaymentLinkView,
  SubscriptionView,
} from '../projections/checkout-read-model.projection';

/** The public order status (docs/checkout.md#order-status). */
export interface OrderStatusView {
  status: string;
  amountMinorUnits: string;
  currency: string;
  subscriptionId: string | null;
}

export const orderStatusOf = (order: OrderView): OrderStatusView => ({
  status: order.status,
  amountMinorUnits: order.amountMinorUnits,
  currency: order.currency,
  subscriptionId: order.subscriptionId,
});

export function subscriptionRecordOf(sub: SubscriptionView) {
  return {
    subscriptionId: sub.subscriptionId,
    status: sub.status,
    intervalUnit: sub.intervalUnit,
    amountMinorUnits: sub.amountMinorUnits,
    currency: sub.currency,
    provider: sub.provider,
    currentPeriodStart: sub.currentPeriodStart,
    currentPeriodEnd: sub.currentPeriodEnd,
    consecutiveDeclines: sub.consecutiveDeclines,
    card: sub.card,
    cancelledAt: sub.cancelledAt,
    cancellationReason: sub.cancellationReason,
  };
}

/** A refund as its merchant reads it (docs/checkout.md#refunds). */
export type RefundRecordView = Omit<RefundView, 'id' | 'merchantCompanyId'>;

export const refundRecordOf = ({ id: _id, merchantCompanyId: _m, ...shown }: RefundView): RefundRecordView => shown;

@Injectable()
export class CheckoutQueries {
  constructor(
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  /**
   * Creating an order does not wait for the read model (see CreateCheckoutHandler), so an order the read
   * model does not hold yet may have been created a moment ago: wait for its stream before a 404.
   */
  async order(orderId: string): Promise<OrderView> {
    const order = await this.store.get<OrderView>(CHECKOUT_ORDERS, orderId);
    if (order) return order;
    await this.readYourWrites.afterStream(orderStreamId(orderId));
    const projected = await this.store.get<OrderView>(CHECKOUT_ORDERS, orderId);
    if (!projected) throw new CheckoutOrderNotFoundError();
    return projected;
  }

  /** Who is paid and for what, as the buyer pages show it: the merchant's name and the order reference or payment-link title. */
  async buyerFacing(order: Pick<OrderView, 'merchantCompanyId' | 'externalOrderRef'>): Promise<{ merchant: string; item: string | null }> {
    const merchant = (await company(this.store, order.merchantCompanyId))?.name ?? 'the merchant';
    const ref = order.externalOrderRef;
    if (ref?.startsWith(PAYMENT_LINK_ORDER_REF)) {
      const link = await this.store.get<PaymentLinkView>(PAYMENT_LINKS, ref.slice(PAYMENT_LINK_ORDER_REF.length));
      return { merchant, item: link?.title ?? null };
    }
    return { merchant, item: ref ? `Order ${ref}` : null };
  }

  async merchantName(companyId: string): Promise<string> {
    return (await company(this.store, companyId))?.name ?? 'the merchant';
  }

  /** The refunds of one of the merchant's orders, oldest first (404 for an order of another merchant). */
  async refunds(orderId: string, companyId: string): Promise<RefundRecordView[]> {
    const order = await this.order(orderId);
    if (order.merchantCompanyId !== companyId) throw new CheckoutOrderNotFoundError();
    const refunds = await this.store.find<RefundView>(CHECKOUT_REFUNDS, {
      filter: { orderId },
      sort: [
        { field: 'createdAt', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
    });
    return refunds.map(refundRecordOf);
  }

  /** One refund of the merchant's order, as answered by POST .../refunds. */
  async refund(refundId: string, companyId: string): Promise<RefundRecordView> {
    const refund = await this.store.get<RefundView>(CHECKOUT_REFUNDS, refundId);
    if (!refund || refund.merchantCompanyId !== companyId) throw new CheckoutOrderNotFoundError();
    return refundRecordOf(refund);
  }

  async subscription(subscriptionId: string): Promise<SubscriptionView> {
    const sub = await this.store.get<SubscriptionView>(CHECKOUT_SUBSCRIPTIONS, subscriptionId);
    if (!sub) throw new CheckoutSubscriptionNotFoundError();
    return sub;
  }

  async paymentLink(slug: string): Promise<PaymentLinkView> {
    const link = await this.store.get<PaymentLinkView>(PAYMENT_LINKS, slug);
    if (!link) throw new PaymentLinkNotFoundError();
    return link;
  }
}
