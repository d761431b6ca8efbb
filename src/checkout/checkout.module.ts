import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { checkoutPaymentsProvider } from './application/checkout-services.provider';
import { CheckoutQueries } from './application/checkout-queries';
import { CreateCheckoutHandler } from './application/create-checkout.handler';
import { PayOrderHandler } from './application/pay-order.handler';
import { PaymentLinksHandler } from './application/payment-links.handler';
import { SubscriptionsHandler } from './application/subscriptions.handler';
import { HostedPagesController } from './http/hosted-pages.controller';
import { IntegrationCheckoutController } from './http/integration-checkout.controller';
import { PaymentLinksController } from './http/payment-links.controller';
import { PublicCheckoutController } from './http/public-checkout.controller';

@Module({
  controllers: [IntegrationCheckoutController, PublicCheckoutController, PaymentLinksController, HostedPagesController],
  providers: [checkoutPaymentsProvider, CheckoutQueries, CreateCheckoutHandler, PayOrderHandler, PaymentLinksHandler, SubscriptionsHandler],
})
export class CheckoutModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** The hosted pages post plain HTML forms (application/x-www-form-urlencoded), which Fastify does not parse by itself. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || fastify.hasContentTypeParser('application/x-www-form-urlencoded')) return;
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      const form: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(body as string)) form[key] = value;
      done(null, form);
    });
  }
}
