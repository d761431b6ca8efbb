import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import {
  BANK_TRANSFER_STREAM_PREFIX,
  BankTransferEvent,
  BankTransferStatus,
  CollectionStatus,
  INVOICE_EVENT_TYPES,
  INVOICE_STREAM_PREFIX,
  InvoiceEvent,
  PaymentMethod,
  Reminder,
} from '../domain/invoice.events';

export const INVOICES = 'invoices';
export const BANK_TRANSFERS = 'bank_transfers';

/** One payment of an invoice as the enterprise reads it in the bill's history. */
export interface InvoicePaymentView {
  paymentId: string;
  method: PaymentMethod;
  amountCents: string;
  appliedCents: string;
  overpaidCents: string;
  receivedAt: string;
}

/** The invoice as stored (docs/api.md#invoices); InvoiceQueries adds how to pay it. */
export interface InvoiceDoc {
  id: string;
  splitId: string;
  smeCompanyId: string;
  enterpriseCompanyId: string;
  apContactBusinessProfileId: string;
  currency: string;
  amountCents: string;
  paidCents: string;
  outstandingCents: string;
  status: CollectionStatus;
  paymentReference: string;
  issuedAt: string;
  dueAt: string;
  paidAt: string | null;
  overdueAt: string | null;
  payments: InvoicePaymentView[];
  reminders: { reminder: Reminder; sentAt: string }[];
  updatedAt: string;
}

/** An incoming bank transfer (sandbox), matched to an invoice or parked for review. */
export interface BankTransferDoc {
  id: string;
  reference: string;
  currency: string;
  amountCents: string;
  status: BankTransferStatus;
  invoiceId: string | null;
  parkedReason: string | null;
  receivedAt: string;
  /** When a parked transfer was applied or returned (absent on documents written before: null). */
  resolvedAt?: string | null;
}

/** Invoices as the enterprise lists and reads them, and incoming bank transfers. */
@Injectable()
@LogSubscriber()
export class InvoicesReadModelProjection implements Projection {
  readonly name = 'invoices';
  readonly streams = [INVOICE_STREAM_PREFIX, BANK_TRANSFER_STREAM_PREFIX];
  readonly collections = [
    { name: INVOICES, indexes: [['enterpriseCompanyId', 'dueAt'], ['enterpriseCompanyId', 'status', 'dueAt'], ['paymentReference'], ['splitId']] },
    { name: BANK_TRANSFERS, indexes: [['status', 'receivedAt'], ['receivedAt']] },
  ];

  handles(event: RecordedEvent): boolean {
    return INVOICE_EVENT_TYPES.has(event.type) || event.type === 'bank_transfer.received' || event.type === 'bank_transfer.resolved';
  }

  /** Received MATCHED or PARKED; a parked one later APPLIED to an invoice or RETURNED (issue 27). */
  private async applyBankTransfer(event: BankTransferEvent, writer: ProjectionWriter): Promise<void> {
    if (event.type === 'bank_transfer.received') {
      const { transferId, reference, currency, amountCents, status, invoiceId, parkedReason, receivedAt } = event.data;
      writer.put<BankTransferDoc>(BANK_TRANSFERS, { id: transferId, reference, currency, amountCents, status, invoiceId, parkedReason, receivedAt, resolvedAt: null });
      return;
    }
    const transfer = await writer.edit<BankTransferDoc>(BANK_TRANSFERS, event.data.transferId);
    if (!transfer) throw new Error(`bank_transfer.resolved for unknown transfer ${event.data.transferId}`);
    transfer.status = event.data.resolution;
    transfer.invoiceId = event.data.invoiceId;
    transfer.resolvedAt = event.data.resolvedAt;
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    if (recorded.streamId.startsWith(BANK_TRANSFER_STREAM_PREFIX)) return this.applyBankTransfer({ type: recorded.type, data: recorded.data } as BankTransferEvent, writer);
    const event = { type: recorded.type, data: recorded.data } as InvoiceEvent;
    if (event.type === 'invoice.issued') {
      const d = event.data;
      writer.put<InvoiceDoc>(INVOICES, {
        id: d.invoiceId,
        splitId: d.splitId,
        smeCompanyId: d.smeCompanyId,
        enterpriseCompanyId: d.enterpriseCompanyId,
        apContactBusinessProfileId: d.apContactBusinessProfileId,
        currency: d.currency,
        amountCents: d.amountCents,
        paidCents: '0',
        outstandingCents: d.amountCents,
        status: d.collectionStatus,
        paymentReference: d.paymentReference,
        issuedAt: d.issuedAt,
        dueAt: d.dueAt,
        paidAt: null,
        overdueAt: null,
        payments: [],
        reminders: [],
        updatedAt: recorded.metadata.occurredAt,
      });
      return;
    }
    const invoice = await writer.edit<InvoiceDoc>(INVOICES, event.data.invoiceId);
    if (!invoice) throw new Error(`${event.type} for unknown invoice ${event.data.invoiceId} (event ${recorded.id})`);
    invoice.status = event.data.collectionStatus;
    invoice.updatedAt = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'invoice.payment_recorded': {
        const { paymentId, method, amountCents, appliedCents, overpaidCents, receivedAt, outstandingCents } = event.data;
        invoice.payments.push({ paymentId, method, amountCents, appliedCents, overpaidCents, receivedAt });
        invoice.outstandingCents = outstandingCents;
        invoice.paidCents = (BigInt(invoice.amountCents) - BigInt(outstandingCents)).toString();
        return;
      }
      case 'invoice.paid':
        invoice.paidAt = event.data.paidAt;
        return;
      case 'invoice.overdue':
        invoice.overdueAt = event.data.overdueAt;
        return;
      case 'invoice.reminder_sent':
        invoice.reminders.push({ reminder: event.data.reminder, sentAt: event.data.sentAt });
        return;
    }
  }
}
