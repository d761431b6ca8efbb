// Public API of the collection module (issue 27): its Nest module, the sandbox bank route (mounted by the
// sandbox module), and the invoice and bank transfer events the ledger and webhooks follow.
export { CollectionModule } from './collection.module';
export { SandboxBankTransfersController } from './http/sandbox-bank-transfers.controller';
export { BANK_TRANSFER_STREAM_PREFIX, COLLECTIONS_MERCHANT, INVOICE_STREAM_PREFIX, INVOICE_EVENT_TYPES, type BankTransferEvent, type InvoiceEvent } from './domain/invoice.events';
// What webhooks sends for invoice events: the public events and payloads, and the companies they go to.
export { collectionPublicEvent, type CollectionPublicEvent, type SplitInvoicePaidPayload, type SplitInvoiceOverduePayload } from './domain/collection.public-events';
