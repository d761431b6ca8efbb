import { MerchantListsQuery } from './application/merchant-lists.query';
import { MerchantCheckoutController } from './http/merchant-checkout.controller';
import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { ApproveWalletPaymentHandler } from './application/approve-wallet-payment.handler';
import { CancelSubscriptionHandler } from './application/cancel-subscription.handler';
import { MerchantCancelSubscriptionHandler } from './application/merchant-cancel-subscription.handler';
import { ChargeRenewalHandler } from './application/charge-renewal.handler';
import { CheckoutPayments } from './application/checkout-payments';
import { CheckoutSecrets } from './application/checkout-secrets';
import { CheckoutProcessManager } from './application/checkout.process-manager';
import { CheckoutQueries } from './application/checkout-queries';
import { CompleteAuthenticationHandler } from './application/complete-authentication.handler';
import { CompletePaidOutOrderHandler } from './application/complete-paid-out-order.handler';
import { CreditFailedPayoutHandler } from './application/credit-failed-payout.handler';
import { ConfirmEmbeddedPaymentHandler } from './application/confirm-embedded-payment.handler';
import { CreateCheckoutHandler } from './application/create-checkout.handler';
import { CreatePaymentLinkHandler } from './application/create-payment-link.handler';
import { ExpireOrderHandler } from './application/expire-order.handler';
import { PayHostedOrderHandler } from './application/pay-hosted-order.handler';
import { RecordRenewalDeclineHandler } from './application/record-renewal-decline.handler';
import { RecordRenewalHandler } from './application/record-renewal.handler';
import { StartPaymentLinkOrderHandler } from './application/start-payment-link-order.handler';
import { PaymentLinkOrderLimits } from './application/payment-link-order-limits';
import { StartSubscriptionHandler } from './application/start-subscription.handler';
import { UseAnotherCardHandler } from './application/use-another-card.handler';
import { VoidChargeHandler } from './application/void-charge.handler';
import { SettlePaymentAttemptHandler } from './application/settle-payment-attempt.handler';
import { CheckoutRefunds } from './application/checkout-refunds';
import { RefundOrderHandler } from './application/refund-order.handler';
import { SettleRefundHandler } from './application/settle-refund.handler';
import { DebitMerchantRefundHandler } from './application/debit-merchant-refund.handler';
import { PayOutOrderHandler } from './application/pay-out-order.handler';
import { SendRenewalEmailHandler } from './application/send-renewal-email.handler';
import { paymentProcessorsProvider } from './infrastructure/payment-processors.provider';
import { CheckoutReadModelProjection } from './projections/checkout-read-model.projection';
import { HostedPagesController } from './http/hosted-pages.controller';
import { IntegrationCheckoutController } from './http/integration-checkout.controller';
import { PaymentLinksController } from './http/payment-links.controller';
import { PublicCheckoutController } from './http/public-checkout.controller';
import { MerchantSubscriptionsController } from './http/merchant-subscriptions.controller';
import { SubscriptionPagesController } from './http/subscription-pages.controller';

/** What buyers and merchants call: create, pay, cancel. */
const useCases = [
  CreateCheckoutHandler,
  ConfirmEmbeddedPaymentHandler,
  PayHostedOrderHandler,
  CompleteAuthenticationHandler,
  UseAnotherCardHandler,
  ApproveWalletPaymentHandler,
  CreatePaymentLinkHandler,
  StartPaymentLinkOrderHandler,
  CancelSubscriptionHandler,
  MerchantCancelSubscriptionHandler,
  RefundOrderHandler,
];

/** What the checkout workflow sends: expiry, subscriptions, renewals, completion after the merchant payout. */
const workflow = [
  CheckoutProcessManager,
  StartSubscriptionHandler,
  CompletePaidOutOrderHandler,
  CreditFailedPayoutHandler,
  ExpireOrderHandler,
  ChargeRenewalHandler,
  RecordRenewalHandler,
  RecordRenewalDeclineHandler,
  VoidChargeHandler,
  SettlePaymentAttemptHandler,
  PayOutOrderHandler,
  SettleRefundHandler,
  DebitMerchantRefundHandler,
  SendRenewalEmailHandler,
];

@Module({
  // The buyer's renewal emails go through the identity module's outbox (issue 29).
  imports: [IdentityModule],
  controllers: [
    IntegrationCheckoutController,
    PublicCheckoutController,
    PaymentLinksController,
    MerchantCheckoutController,
    MerchantSubscriptionsController,
    HostedPagesController,
    SubscriptionPagesController,
  ],
  providers: [
    paymentProcessorsProvider,
    PaymentLinkOrderLimits,
    CheckoutPayments,
    CheckoutRefunds,
    CheckoutSecrets,
    CheckoutQueries,
    MerchantListsQuery,
    CheckoutReadModelProjection,
    ...useCases,
    ...workflow,
  ],
})
export class CheckoutModule {}
