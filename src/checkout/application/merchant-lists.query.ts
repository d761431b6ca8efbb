import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Page } from '../../platform/http/envelope';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { DOCUMENT_READER, DocumentReader, Filter } from '../../platform/read-store/document-store.port';
import type { OrderStatus } from '../domain/checkout.events';
import type { SubscriptionStatus } from '../domain/subscription.events';
import { CHECKOUT_ORDERS, CHECKOUT_SUBSCRIPTIONS, OrderView, PAYMENT_LINKS, PaymentLinkView, SubscriptionView } from '../projections/checkout-read-model.projection';
import { subscriptionRecordOf } from './checkout-queries';

/** An order as its merchant lists it: never the buyer's page token or client secret (those are the buyer's credentials). */
export type MerchantOrderView = Omit<OrderView, 'merchantCompanyId' | 'pageToken' | 'pageTokenHash' | 'unlisted' | 'refundedMinorUnits'> & { refundedMinorUnits: string };
export type MerchantSubscriptionView = ReturnType<typeof subscriptionRecordOf> & { createdAt: string | null };
export interface MerchantPaymentLinkView {
  slug: string;
  url: string;
  title: string;
  amountMinorUnits: string;
  currency: string;
  provider: string;
  createdAt: string;
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
  orders(companyId: string, status: OrderStatus | undefined, page: number, limit: number, externalOrderRef?: string): Promise<Page<MerchantOrderView>> {
    // A reference asked for finds its order whatever it is (an unlisted one too): the merchant named it.
    const byRef: Filter = externalOrderRef ? { externalOrderRef } : { unlisted: null };
    const filter: Filter = status ? { merchantCompanyId: companyId, status, ...(externalOrderRef ? { externalOrderRef } : {}) } : { merchantCompanyId: companyId, ...byRef };
    return this.page<OrderView, MerchantOrderView>(CHECKOUT_ORDERS, filter, page, limit, (order) => {
      // A document written before issue 15 may still hold the plaintext clientSecret: never shown.
      const { merchantCompanyId: _m, pageToken: _p, pageTokenHash: _h, unlisted: _u, clientSecret: _c, ...shown } = order as OrderView & { clientSecret?: string | null };
      return { ...shown, refundedMinorUnits: order.refundedMinorUnits ?? '0' };
    });
  }

  subscriptions(companyId: string, status: SubscriptionStatus | undefined, page: number, limit: number): Promise<Page<MerchantSubscriptionView>> {
    return this.page<SubscriptionView, MerchantSubscriptionView>(CHECKOUT_SUBSCRIPTIONS, { merchantCompanyId: companyId, ...(status ? { status } : {}) }, page, limit, (sub) => ({
      ...subscriptionRecordOf(sub),
      createdAt: sub.createdAt ?? null,
    }));
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

  private async page<T extends { id: string }, R>(collection: string, filter: Filter, page: number, limit: number, present: (doc: T) => R): Promise<Page<R>> {
    const [items, total] = await Promise.all([
      this.store.find<T>(collection, { filter, sort: NEWEST_FIRST, skip: (page - 1) * limit, limit }),
      this.store.count(collection, filter),
    ]);
    return Page.of(items.map(present), page, limit, total);
  }
}
