// Public API of the payout-embed module: its Nest module, the sandbox top-up route (mounted by the
// sandbox module), and the streams and events the ledger and webhooks follow.
export { PayoutEmbedModule } from './payout-embed.module';
export { SandboxBalanceController } from './http/sandbox-balance.controller';
export { BALANCE_STREAM_PREFIX, SESSION_STREAM_PREFIX, LIFECYCLE_STATUS, type BalanceEvent, type SessionEvent, type SessionRef } from './domain/payout-embed.events';
// What webhooks sends for session events: the public events, their payload and the company they go to.
export { payoutEmbedPublicEvent, type PayoutEmbedPublicEvent, type PayoutEmbedSessionPayload } from './domain/payout-embed.public-events';
// Issue 27: the collection module pays invoices from a company's balance and credits overpayments to it.
export { PayInvoiceFromBalanceMessage } from './application/pay-invoice-from-balance.handler';
export { CreditInvoiceOverpaymentMessage } from './application/credit-invoice-overpayment.handler';
