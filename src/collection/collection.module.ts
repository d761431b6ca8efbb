import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { InvoiceBalancePaymentProcessManager } from './application/invoice-balance-payment.process-manager';
import { InvoiceCollectionProcessManager } from './application/invoice-collection.process-manager';
import { InvoiceEmails } from './application/invoice-emails';
import { InvoiceQueries } from './application/invoice-queries';
import { IssueInvoiceHandler } from './application/issue-invoice.handler';
import { MarkInvoiceOverdueHandler } from './application/mark-invoice-overdue.handler';
import { PayInvoiceFromBalanceRequestHandler } from './application/pay-invoice-from-balance.handler';
import { ApplyParkedTransferHandler, ReturnParkedTransferHandler } from './application/resolve-parked-transfer.handler';
import { ReceiveBankTransferHandler } from './application/receive-bank-transfer.handler';
import { RecordInvoicePaymentHandler } from './application/record-invoice-payment.handler';
import { SendInvoiceReminderHandler } from './application/send-invoice-reminder.handler';
import { StartCardPaymentHandler } from './application/start-card-payment.handler';
import { InvoicesController } from './http/invoices.controller';
import { InvoicesReadModelProjection } from './projections/invoices-read-model.projection';

/** What the enterprise and the sandbox bank call. */
const useCases = [
  PayInvoiceFromBalanceRequestHandler,
  StartCardPaymentHandler,
  ReceiveBankTransferHandler,
  RecordInvoicePaymentHandler,
  ApplyParkedTransferHandler,
  ReturnParkedTransferHandler,
];

/** What the collection workflow sends. */
const collection = [InvoiceCollectionProcessManager, InvoiceBalancePaymentProcessManager, IssueInvoiceHandler, MarkInvoiceOverdueHandler, SendInvoiceReminderHandler];

/** Invoices and their collection (issue 27, docs/api.md#invoices, docs/money.md#collection). */
@Module({
  imports: [IdentityModule],
  controllers: [InvoicesController],
  providers: [InvoiceQueries, InvoiceEmails, InvoicesReadModelProjection, ...useCases, ...collection],
  exports: [InvoiceQueries],
})
export class CollectionModule {}
