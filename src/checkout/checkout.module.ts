import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { FastifyInstance } from 'fastify';
import { ApproveWalletPaymentHandler } from './application/approve-wallet-payment.handler';
import { CancelSubscriptionHandler } from './application/cancel-subscription.handler';
import { checkoutPaymentsProvider } from './application/checkout-services.provider';
import { CheckoutQueries } from './application/checkout-queries';
import { CompleteAuthenticationHandler } from './application/complete-authentication.handler';
import { ConfirmEmbeddedPaymentHandler } from './application/confirm-embedded-payment.handler';
import { CreateCheckoutHandler } from './application/create-checkout.handler';
import { CreatePaymentLinkHandler } from './application/create-payment-link.handler';
import { PayHostedOrderHandler } from './application/pay-hosted-order.handler';
import { StartPaymentLinkOrderHandler } from './application/start-payment-link-order.handler';
import { HostedPagesController } from './http/hosted-pages.controller';
import { IntegrationCheckoutController } from './http/integration-checkout.controller';
import { PaymentLinksController } from './http/payment-links.controller';
import { PublicCheckoutController } from './http/public-checkout.controller';

@Module({
  imports: [CqrsModule],
  controllers: [IntegrationCheckoutController, PublicCheckoutController, PaymentLinksController, HostedPagesController],
  providers: [
    checkoutPaymentsProvider,
    CheckoutQueries,
    CreateCheckoutHandler,
    ConfirmEmbeddedPaymentHandler,
    PayHostedOrderHandler,
    CompleteAuthenticationHandler,
    ApproveWalletPaymentHandler,
    CreatePaymentLinkHandler,
    StartPaymentLinkOrderHandler,
    CancelSubscriptionHandler,
  ],
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
