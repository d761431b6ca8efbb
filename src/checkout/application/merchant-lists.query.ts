import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Page } from '../../platform/http/envelope';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { DOCUMENT_READER, DocumentReader, Filter, Range } from '../../platform/read-store/document-store.port';
import type { OrderStatus } from '../domain/checkout.events';
import type { SubscriptionStatus } from '../domain/subscription.events';
import { CHECKOUT_ORDERS, CHECKOUT_SUBSCRIPTIONS, OrderView, PAYMENT_LINKS, PaymentLinkView, SubscriptionView } from '../projections/checkout-read-model.projection';
import { CheckoutOrderNotFoundError, CheckoutSubscriptionNotFoundError } from '../domain/checkout.errors';
import { CHECKOUT_ORDER_COUNTS, OrderCountsView } from '../projections/checkout-order-counts';
import { subscriptionRecordOf } from './checkout-queries';
import { subscriptionPageUrl } from './subscription-page-url';

/** An order as its merchant lists it: never the buyer's page token or client secret (those are the buyer's credentials). */
export type MerchantOrderView = Omit<OrderView, 'merchantCompanyId' | 'pageToken' | 'pageTokenHash' | 'unlisted' | 'refundedMinorUnits'> & { refundedMinorUnits: string };
/**
 * A subscription as its merchant lists it (issue 29 item 6): who it is for as far as the service knows, i.e. the
 * founding order and the merchant's own reference on it (the service never asks the buyer for a name or email).
 */
export type MerchantSubscriptionView = ReturnType<typeof subscriptionRecordOf> & {
  createdAt: string | null;
  foundingOrderId: string | null;
  externalOrderRef: string | null;
  /** The buyer's page to read and cancel it (the receipt links it; a merchant's own renewal emails can too). */
  manageUrl: string;
};
/** Orders created in [from, to): ISO instants (the API checks them). */
export interface CreatedWindow {
  from?: string;
  to?: string;
}
export interface MerchantPaymentLinkView {
  slug: string;
  url: string;
  title: string;
  amountMinorUnits: string;
  currency: string;
  provider: string;
  createdAt: string;
}

/** Never the buyer's page token or client secret (a document written before issue 15 may still hold the plaintext clientSecret). */
function merchantOrderOf(order: OrderView): MerchantOrderView {
  const { merchantCompanyId: _m, pageToken: _p, pageTokenHash: _h, unlisted: _u, clientSecret: _c, ...shown } = order as OrderView & { clientSecret?: string | null };
  return { ...shown, refundedMinorUnits: order.refundedMinorUnits ?? '0' };
}

const NEWEST_FIRST = [
  { field: 'createdAt', direction: 'desc' as const },
  { field: 'id', direction: 'desc' as const },
];

/** The merchant dashboard's lists: its orders, subscriptions and payment links, newest first, paged. */
@Injectable()
export class MerchantListsQuery {
  constructor(
    @Inject(DOCUMENT_READER) private readonly store: DocumentReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Without a status, the default list: every order except payment-link orders that expired unpaid (anyone
   * can start those, so they would bury the merchant's real orders; issue 24). With a status, all orders in it.
   */
  orders(companyId: string, status: OrderStatus | undefined, page: number, limit: number, externalOrderRef?: string, window: CreatedWindow = {}): Promise<Page<MerchantOrderView>> {
    // A reference asked for finds its order whatever it is (an unlisted one too): the merchant named it.
    const byRef: Filter = externalOrderRef ? { externalOrderRef } : { unlisted: null };
    const filter: Filter = status ? { merchantCompanyId: companyId, status, ...(externalOrderRef ? { externalOrderRef } : {}) } : { merchantCompanyId: companyId, ...byRef };
    const range: Range = window.from || window.to ? { createdAt: { ...(window.from ? { gte: window.from } : {}), ...(window.to ? { lt: window.to } : {}) } } : {};
    const keptTotal = externalOrderRef || window.from || window.to ? undefined : () => this.keptOrderTotal(companyId, status);
    return this.page<OrderView, MerchantOrderView>(CHECKOUT_ORDERS, filter, page, limit, merchantOrderOf, range, keptTotal);
  }

  /**
   * The merchant's kept count for an unnarrowed list (checkout-order-counts.ts). None is kept for a merchant
   * without orders, nor in a generation built before the counts were (it answers until its rebuild swaps):
   * null, and the list counts.
   */
  private async keptOrderTotal(companyId: string, status: OrderStatus | undefined): Promise<number | null> {
    const counts = await this.store.get<OrderCountsView>(CHECKOUT_ORDER_COUNTS, companyId);
    if (!counts) return null;
    return status ? (counts.statuses[status] ?? 0) : counts.listed;
  }

  /** One of the merchant's orders (its detail page; issue 29 item 6); 404 for an unknown order or another merchant's. */
  async order(companyId: string, orderId: string): Promise<MerchantOrderView> {
    const order = await this.store.get<OrderView>(CHECKOUT_ORDERS, orderId);
    if (!order || order.merchantCompanyId !== companyId) throw new CheckoutOrderNotFoundError();
    return merchantOrderOf(order);
  }

  async subscriptions(companyId: string, status: SubscriptionStatus | undefined, page: number, limit: number): Promise<Page<MerchantSubscriptionView>> {
    const listed = await this.page<SubscriptionView, SubscriptionView>(
      CHECKOUT_SUBSCRIPTIONS,
      { merchantCompanyId: companyId, ...(status ? { status } : {}) },
      page,
      limit,
      (sub) => sub,
    );
    const items = await Promise.all(listed.items.map((sub) => this.merchantSubscription(sub)));
    return Page.of(items, page, limit, listed.meta.total);
  }

  /** One of the merchant's subscriptions; 404 for an unknown one or another merchant's. */
  async subscription(companyId: string, subscriptionId: string): Promise<MerchantSubscriptionView> {
    const sub = await this.store.get<SubscriptionView>(CHECKOUT_SUBSCRIPTIONS, subscriptionId);
    if (!sub || sub.merchantCompanyId !== companyId) throw new CheckoutSubscriptionNotFoundError();
    return this.merchantSubscription(sub);
  }

  /** The founding order is the subscription's first order (renewal orders come later), found by the subscriptionId every paid order of it carries. */
  private async merchantSubscription(sub: SubscriptionView): Promise<MerchantSubscriptionView> {
    const [founding] = await this.store.find<OrderView>(CHECKOUT_ORDERS, {
      filter: { subscriptionId: sub.subscriptionId, renewal: null },
      sort: [{ field: 'createdAt', direction: 'asc' }],
      limit: 1,
    });
    return {
      ...subscriptionRecordOf(sub),
      createdAt: sub.createdAt ?? null,
      foundingOrderId: founding?.id ?? null,
      externalOrderRef: founding?.externalOrderRef ?? null,
      manageUrl: subscriptionPageUrl(this.config.hostedCheckoutUrl, sub.subscriptionId),
    };
  }

  paymentLinks(companyId: string, page: number, limit: number): Promise<Page<MerchantPaymentLinkView>> {
    return this.page<PaymentLinkView, MerchantPaymentLinkView>(PAYMENT_LINKS, { companyId }, page, limit, (link) => ({
      slug: link.slug,
      url: `${this.config.hostedCheckoutUrl}/checkout/${link.slug}`,
      title: link.title,
      amountMinorUnits: link.amountMinorUnits,
      currency: link.currency,
      provider: link.provider,
      createdAt: link.createdAt,
    }));
  }

  private async page<T extends { id: string }, R>(
    collection: string,
    filter: Filter,
    page: number,
    limit: number,
    present: (doc: T) => R,
    range: Range = {},
    keptTotal: () => Promise<number | null> = async () => null,
  ): Promise<Page<R>> {
    const [items, kept] = await Promise.all([this.store.find<T>(collection, { filter, range, sort: NEWEST_FIRST, skip: (page - 1) * limit, limit }), keptTotal()]);
    const total = kept ?? (await this.store.count(collection, filter, range));
    return Page.of(items.map(present), page, limit, total);
  }
}
