import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { CheckoutMode, IntervalUnit, ORDER_EVENT_TYPES, ORDER_STREAM_PREFIX, OrderEvent, OrderStatus, Provider, RefundStatus, RenewalRef } from '../domain/checkout.events';
import { storedSecretHash } from '../domain/checkout-order.decider';
import { PAYMENT_LINK_STREAM_PREFIX, PaymentLinkCreated } from '../domain/payment-link.events';
import { CancellationReason, SUBSCRIPTION_EVENT_TYPES, SUBSCRIPTION_STREAM_PREFIX, SubscriptionEvent, SubscriptionStatus } from '../domain/subscription.events';
import { CHECKOUT_ORDER_COUNTS, countOrderChange } from './checkout-order-counts';

export const CHECKOUT_ORDERS = 'checkout_orders';
export const CHECKOUT_SUBSCRIPTIONS = 'checkout_subscriptions';
export const PAYMENT_LINKS = 'payment_links';
/** Refunds of orders (issue 26), one document per refund. */
export const CHECKOUT_REFUNDS = 'checkout_refunds';

/** A refund as the merchant reads it (docs/checkout.md#refunds), field for field. */
export interface RefundView {
  id: string;
  refundId: string;
  orderId: string;
  merchantCompanyId: string;
  amountMinorUnits: string;
  currency: string;
  status: RefundStatus;
  reason: string | null;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An order as the service reads it (the public status call shows only part of it). */
export interface OrderView {
  id: string;
  merchantCompanyId: string;
  status: OrderStatus;
  amountMinorUnits: string;
  currency: string;
  provider: Provider;
  checkoutMode: CheckoutMode;
  returnUrl: string;
  externalOrderRef: string | null;
  subscriptionIntervalUnit: IntervalUnit | null;
  subscriptionId: string | null;
  renewal: RenewalRef | null;
  /** SHA-256 of the hosted page's token (the token is stored nowhere). */
  pageTokenHash: string | null;
  /** Documents written before issue 15 only: the page token in plaintext (a rebuild replaces it by the hash). */
  pageToken?: string | null;
  card: { brand: string; last4: string } | null;
  lastDecline: { declineCode: string; reason: string } | null;
  payoutId: string | null;
  completed: boolean;
  createdAt: string;
  expiresAt: string | null;
  paidAt: string | null;
  updatedAt: string;
  /**
   * True for a payment-link order that expired unpaid: anyone can start one (docs/checkout.md#payment-links),
   * so these stay out of the merchant's default order list (`?status=EXPIRED` still shows them). Absent
   * otherwise, and on documents projected before issue 24 (a rebuild sets it).
   */
  unlisted?: true;
  /** The buyer's email (issue 29): the merchant's customerEmail or the one given on the hosted page; absent without one. Never on a buyer-facing answer. */
  customerEmail?: string;
  /** What refunds returned to the buyer (issue 26); absent on documents projected before and on orders never refunded. */
  refundedMinorUnits?: string;
}

/** The subscription record of the buyer self-service calls (docs/checkout.md#subscriptions), field for field. */
export interface SubscriptionView {
  id: string;
  subscriptionId: string;
  merchantCompanyId: string;
  status: SubscriptionStatus;
  intervalUnit: IntervalUnit;
  amountMinorUnits: string;
  currency: string;
  provider: Provider;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  consecutiveDeclines: number;
  card: { brand: string; last4: string };
  cancelledAt: string | null;
  cancellationReason: CancellationReason | null;
  /** When the subscription started (its founding order was paid); absent on documents projected before it was kept. */
  createdAt?: string;
}

export interface PaymentLinkView {
  id: string;
  slug: string;
  companyId: string;
  title: string;
  amountMinorUnits: string;
  currency: string;
  provider: Provider;
  createdAt: string;
}

/** The externalOrderRef of an order started on a payment link: this prefix and the link's slug. */
export const PAYMENT_LINK_ORDER_REF = 'payment_link:';

/** Orders (status page, hosted pages), subscriptions (self-service) and payment links. */
@Injectable()
@LogSubscriber()
export class CheckoutReadModelProjection implements Projection {
  readonly name = 'checkout';
  /** 2: keeps each merchant's order counts (checkout-order-counts.ts); a generation built before rebuilds at start. */
  readonly version = 2;
  readonly streams = [ORDER_STREAM_PREFIX, SUBSCRIPTION_STREAM_PREFIX, PAYMENT_LINK_STREAM_PREFIX];
  readonly collections = [
    {
      name: CHECKOUT_ORDERS,
      // One per list filter (docs/decisions.md, "Indexes for the merchant's order lists"): the page's total is a
      // COUNT, which without them read every one of the merchant's order documents.
      indexes: [
        ['merchantCompanyId', 'createdAt'],
        ['merchantCompanyId', 'unlisted', 'createdAt'],
        ['merchantCompanyId', 'status', 'createdAt'],
        ['merchantCompanyId', 'externalOrderRef', 'createdAt'],
        ['subscriptionId', 'renewal', 'createdAt'],
      ],
    },
    {
      name: CHECKOUT_SUBSCRIPTIONS,
      indexes: [
        ['merchantCompanyId', 'createdAt'],
        ['merchantCompanyId', 'status', 'createdAt'],
      ],
    },
    { name: CHECKOUT_ORDER_COUNTS },
    { name: PAYMENT_LINKS, indexes: [['companyId', 'createdAt']] },
    { name: CHECKOUT_REFUNDS, indexes: [['orderId', 'createdAt']] },
  ];

  handles(event: RecordedEvent): boolean {
    return ORDER_EVENT_TYPES.has(event.type) || SUBSCRIPTION_EVENT_TYPES.has(event.type) || event.type === 'checkout.payment_link.created';
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    if (recorded.type === 'checkout.payment_link.created') {
      const data = recorded.data as PaymentLinkCreated['data'];
      writer.put<PaymentLinkView>(PAYMENT_LINKS, { id: data.slug, ...data });
      return;
    }
    const at = recorded.metadata.occurredAt;
    if (SUBSCRIPTION_EVENT_TYPES.has(recorded.type)) return this.applySubscription({ type: recorded.type, data: recorded.data } as SubscriptionEvent, writer, at);
    const event = { type: recorded.type, data: recorded.data } as OrderEvent;
    if (event.type === 'checkout.order.created') {
      const d = event.data;
      const view: OrderView = {
        id: d.orderId,
        merchantCompanyId: d.merchantCompanyId,
        status: 'OPEN',
        amountMinorUnits: d.amountMinorUnits,
        currency: d.currency,
        provider: d.provider,
        checkoutMode: d.checkoutMode,
        returnUrl: d.returnUrl,
        externalOrderRef: d.externalOrderRef,
        subscriptionIntervalUnit: d.subscriptionIntervalUnit,
        subscriptionId: d.renewal?.subscriptionId ?? null,
        renewal: d.renewal,
        pageTokenHash: storedSecretHash(d.pageTokenHash, d.pageToken),
        card: null,
        lastDecline: null,
        payoutId: null,
        completed: false,
        createdAt: d.createdAt,
        expiresAt: d.expiresAt,
        paidAt: null,
        updatedAt: at,
        ...(d.customerEmail ? { customerEmail: d.customerEmail } : {}),
      };
      writer.put<OrderView>(CHECKOUT_ORDERS, view);
      return countOrderChange(writer, null, view);
    }
    const order = await writer.get<OrderView>(CHECKOUT_ORDERS, event.data.orderId);
    if (!order) throw new Error(`${event.type} for unknown order ${event.data.orderId} (event ${recorded.id})`);
    if (event.type === 'checkout.order.refund_requested' || event.type === 'checkout.order.refund_succeeded' || event.type === 'checkout.order.refund_failed')
      return this.applyRefund(event, order, writer, at);
    const abandonedLinkOrder = event.type === 'checkout.order.expired' && (order.externalOrderRef?.startsWith(PAYMENT_LINK_ORDER_REF) ?? false);
    const changed: OrderView = { ...order, ...orderChanges(event), ...(abandonedLinkOrder ? { unlisted: true as const } : {}), updatedAt: at };
    writer.put<OrderView>(CHECKOUT_ORDERS, changed);
    return countOrderChange(writer, order, changed);
  }

  /** A refund's document, and on success the order's refunded amount and status (PARTIALLY_REFUNDED, then REFUNDED). */
  private async applyRefund(
    event: Extract<OrderEvent, { type: 'checkout.order.refund_requested' | 'checkout.order.refund_succeeded' | 'checkout.order.refund_failed' }>,
    order: OrderView,
    writer: ProjectionWriter,
    at: string,
  ): Promise<void> {
    const d = event.data;
    if (event.type === 'checkout.order.refund_requested') {
      writer.put<RefundView>(CHECKOUT_REFUNDS, {
        id: d.refundId,
        refundId: d.refundId,
        orderId: d.orderId,
        merchantCompanyId: d.merchantCompanyId,
        amountMinorUnits: d.amountMinorUnits,
        currency: d.currency,
        status: 'pending',
        reason: event.data.reason,
        failureCode: null,
        failureReason: null,
        createdAt: at,
        updatedAt: at,
      });
      return;
    }
    const refund = await writer.get<RefundView>(CHECKOUT_REFUNDS, d.refundId);
    if (!refund) throw new Error(`${event.type} for unknown refund ${d.refundId}`);
    if (event.type === 'checkout.order.refund_failed') {
      writer.put<RefundView>(CHECKOUT_REFUNDS, { ...refund, status: 'failed', failureCode: event.data.failureCode, failureReason: event.data.failureReason, updatedAt: at });
      return;
    }
    writer.put<RefundView>(CHECKOUT_REFUNDS, { ...refund, status: 'succeeded', updatedAt: at });
    const refunded = BigInt(order.refundedMinorUnits ?? '0') + BigInt(d.amountMinorUnits);
    const status = refunded >= BigInt(order.amountMinorUnits) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const refundedOrder: OrderView = { ...order, status, refundedMinorUnits: refunded.toString(), updatedAt: at };
    writer.put<OrderView>(CHECKOUT_ORDERS, refundedOrder);
    return countOrderChange(writer, order, refundedOrder);
  }

  private async applySubscription(event: SubscriptionEvent, writer: ProjectionWriter, at: string): Promise<void> {
    if (event.type === 'checkout.subscription.started') {
      const d = event.data;
      const view: SubscriptionView = {
        id: d.subscriptionId,
        subscriptionId: d.subscriptionId,
        merchantCompanyId: d.merchantCompanyId,
        status: 'ACTIVE',
        intervalUnit: d.intervalUnit,
        amountMinorUnits: d.amountMinorUnits,
        currency: d.currency,
        provider: d.provider,
        currentPeriodStart: d.currentPeriodStart,
        currentPeriodEnd: d.currentPeriodEnd,
        consecutiveDeclines: 0,
        card: { brand: d.card.brand, last4: d.card.last4 },
        cancelledAt: null,
        cancellationReason: null,
        createdAt: at,
      };
      writer.put<SubscriptionView>(CHECKOUT_SUBSCRIPTIONS, view);
      return;
    }
    const sub = await writer.get<SubscriptionView>(CHECKOUT_SUBSCRIPTIONS, event.data.subscriptionId);
    if (!sub) throw new Error(`${event.type} for unknown subscription ${event.data.subscriptionId}`);
    switch (event.type) {
      case 'checkout.subscription.renewed':
        writer.put<SubscriptionView>(CHECKOUT_SUBSCRIPTIONS, {
          ...sub,
          currentPeriodStart: event.data.currentPeriodStart,
          currentPeriodEnd: event.data.currentPeriodEnd,
          consecutiveDeclines: 0,
        });
        return;
      case 'checkout.subscription.renewal_declined':
        writer.put<SubscriptionView>(CHECKOUT_SUBSCRIPTIONS, { ...sub, consecutiveDeclines: event.data.consecutiveDeclines });
        return;
      case 'checkout.subscription.cancelled':
        writer.put<SubscriptionView>(CHECKOUT_SUBSCRIPTIONS, { ...sub, status: 'CANCELLED', cancelledAt: event.data.at, cancellationReason: event.data.reason });
        return;
    }
  }
}

function orderChanges(event: Exclude<OrderEvent, { type: 'checkout.order.created' }>): Partial<OrderView> {
  switch (event.type) {
    // Attempts and voided charges are the order's history (its stream); the view shows only their effect.
    case 'checkout.order.payment_attempt_started':
      return event.data.customerEmail ? { customerEmail: event.data.customerEmail } : {};
    case 'checkout.order.payment_attempt_abandoned':
    case 'checkout.order.charge_voided':
      return {};
    case 'checkout.order.action_required':
      return { status: 'REQUIRES_ACTION', card: { brand: event.data.card.brand, last4: event.data.card.last4 } };
    case 'checkout.order.authentication_abandoned':
      return { status: 'OPEN' };
    case 'checkout.order.payment_declined':
      return { status: 'OPEN', lastDecline: { declineCode: event.data.declineCode, reason: event.data.reason } };
    case 'checkout.order.paid':
      return {
        status: 'PAID',
        card: event.data.card ? { brand: event.data.card.brand, last4: event.data.card.last4 } : null,
        subscriptionId: event.data.subscriptionId,
        payoutId: event.data.payoutId,
        paidAt: event.data.paidAt,
      };
    case 'checkout.order.failed':
      return { status: 'FAILED', lastDecline: { declineCode: event.data.declineCode, reason: event.data.reason } };
    case 'checkout.order.expired':
      return { status: 'EXPIRED' };
    case 'checkout.order.completed':
      return { completed: true };
    case 'checkout.order.refund_requested':
    case 'checkout.order.refund_succeeded':
    case 'checkout.order.refund_failed':
      return {};
  }
}
