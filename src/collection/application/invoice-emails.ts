import { Inject, Injectable } from '@nestjs/common';
import { Outbox } from '../../identity';
import { formatAmount } from '../../platform/money/format-amount';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { businessProfile } from '../../parties';
import { ExistingInvoice, outstandingOf } from '../domain/invoice.decider';
import { Reminder } from '../domain/invoice.events';
import { COLLECTION_ACCOUNT, InvoiceQueries } from './invoice-queries';

const SUBJECT: Record<Reminder | 'ISSUED', (amount: string, due: string) => string> = {
  ISSUED: (amount, due) => `Invoice for ${amount}, due ${due}`,
  BEFORE_DUE: (amount, due) => `Reminder: ${amount} is due on ${due}`,
  DUE: (amount, due) => `Due today (${due}): ${amount}`,
  AFTER_DUE: (amount, due) => `Overdue since ${due}: ${amount}`,
};

/**
 * The AP contact's mail about an invoice (the sandbox outbox): the amount, the due date and a link to pay.
 * Each message's id is fixed per invoice and kind, so sending again after a crash replaces it, never doubles it.
 */
@Injectable()
export class InvoiceEmails {
  constructor(
    private readonly outbox: Outbox,
    private readonly queries: InvoiceQueries,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  async send(invoice: ExistingInvoice, kind: Reminder | 'ISSUED', sentAt: string): Promise<void> {
    const contact = await businessProfile(this.documents, invoice.apContactBusinessProfileId);
    if (!contact) return;
    const owed = formatAmount((kind === 'ISSUED' ? invoice.amountCents : outstandingOf(invoice)).toString(), invoice.currency);
    const due = invoice.dueAt.slice(0, 10);
    const link = this.queries.payUrlOf(invoice.invoiceId);
    await this.outbox.send({
      id: `mail_${invoice.invoiceId}_${kind.toLowerCase()}`,
      to: contact.email,
      subject: SUBJECT[kind](owed, due),
      body: [
        `Invoice ${invoice.invoiceId} for Split ${invoice.splitId}: ${owed} ${kind === 'ISSUED' ? 'billed' : 'still owed'}, due ${due}.`,
        `Pay from your Paysplit balance or by card at ${link}.`,
        `Or by bank transfer to ${COLLECTION_ACCOUNT.accountName}, IBAN ${COLLECTION_ACCOUNT.iban}, BIC ${COLLECTION_ACCOUNT.bic}, reference ${invoice.paymentReference}.`,
      ].join('\n'),
      link,
      sentAt,
    });
  }
}
