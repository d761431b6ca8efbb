// Public API of the checkout module: its Nest module and the order stream other modules follow.
export { CheckoutModule } from './checkout.module';
export { ORDER_STREAM_PREFIX, orderStreamId, type OrderEvent, type OrderPaid } from './domain/checkout.events';
export { replayCheckoutCharges, verifyCheckoutCharges, type ChargeReport } from './application/charge-verifier';
// What webhooks sends for Checkout events: the public event, its payload and the company it goes to.
export { checkoutPublicEvent, type CheckoutPublicEvent, type CheckoutCompletedPayload, type CheckoutRefundedPayload } from './domain/checkout.public-events';
export { OperationalChargeBook } from './infrastructure/sandbox-processors';
// Issue 27: the collection module takes an invoice's card payment as a Checkout order of the platform's own.
export { CreateCheckoutMessage } from './application/create-checkout.handler';
// Issue 27: the platform's collections account, whose orders pay invoices and start no merchant payout.
export { PLATFORM_COLLECTIONS_MERCHANT } from './domain/platform-merchants';
