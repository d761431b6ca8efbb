import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { NO_REACTION, Reaction, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { SPLIT_STREAM_PREFIX } from '../../split';
import { CreditInvoiceOverpaymentCommand } from '../../payout-embed';
import { invoiceSteps } from '../domain/collection-schedule';
import { invoiceDecider, InvoiceState, invoiceExists, outstandingOf } from '../domain/invoice.decider';
import { BANK_TRANSFER_STREAM_PREFIX, BankTransferEvent, INVOICE_STREAM_PREFIX, InvoiceEvent, invoiceStreamId } from '../domain/invoice.events';
import { invoiceStepTimer } from './collection.timers';
import { IssueInvoiceCommand } from './issue-invoice.handler';
import { MarkInvoiceOverdueCommand } from './mark-invoice-overdue.handler';
import { RecordInvoicePaymentCommand } from './record-invoice-payment.handler';
import { SendInvoiceReminderCommand } from './send-invoice-reminder.handler';

const ACTOR = 'system:collection';

type Handled = InvoiceEvent | BankTransferEvent | { type: 'split.funded'; data: { splitId: string; invoiced?: boolean } };

/**
 * Collection (issue 27): a funded Split -> its invoice (and the AP contact's mail) -> the invoice's steps on
 * the clock (a reminder 3 days before the due date, OVERDUE and a reminder on it, a reminder 7 days after;
 * a paid invoice skips them) ; a matched bank transfer -> the invoice's payment; an overpayment -> credited
 * to the enterprise's balance. The HTTP handlers do the last two at once; this is what makes them durable.
 */
export const invoiceCollectionWorkflow: Workflow<InvoiceState | null> = {
  name: 'invoice_collection',
  streams: [SPLIT_STREAM_PREFIX, INVOICE_STREAM_PREFIX, BANK_TRANSFER_STREAM_PREFIX],
  timers: [invoiceStepTimer],
  handles: (event) =>
    // Splits funded before invoices existed have no `invoiced` and get no invoice (docs/decisions.md).
    (event.type === 'split.funded' && (event.data as { invoiced?: boolean }).invoiced === true) ||
    event.type === 'invoice.issued' ||
    (event.type === 'invoice.payment_recorded' && (event.data as { overpaidCents?: string }).overpaidCents !== '0') ||
    (event.type === 'bank_transfer.received' && (event.data as { status?: string }).status === 'MATCHED'),
  async load(input, reader) {
    if (input.kind !== 'timer') return null;
    return (await reader.load(invoiceStreamId(invoiceStepTimer.payloadOf(input.timer).invoiceId), invoiceDecider)).state;
  },
  react(input, state) {
    const context = workflowContext(ACTOR, input);
    if (input.kind === 'timer') {
      const { invoiceId, step } = invoiceStepTimer.payloadOf(input.timer);
      if (!state || !invoiceExists(state) || outstandingOf(state) === 0n) return NO_REACTION;
      const remind = new SendInvoiceReminderCommand(invoiceId, step, context);
      return commands(...(step === 'DUE' ? [new MarkInvoiceOverdueCommand(invoiceId, context), remind] : [remind]));
    }
    const event = eventOf(input.event);
    switch (event.type) {
      case 'split.funded':
        return commands(new IssueInvoiceCommand(event.data.splitId, context));
      case 'invoice.issued': {
        const { invoiceId, issuedAt, dueAt } = event.data;
        return { commands: [], timers: invoiceSteps(issuedAt, dueAt).map(({ step, at }) => invoiceStepTimer.at(at, { invoiceId, step })) };
      }
      case 'bank_transfer.received': {
        const { invoiceId, transferId, amountCents } = event.data;
        return invoiceId ? commands(new RecordInvoicePaymentCommand(invoiceId, transferId, 'BANK_TRANSFER', amountCents, context)) : NO_REACTION;
      }
      case 'invoice.payment_recorded': {
        const { enterpriseCompanyId: companyId, invoiceId, paymentId, currency, overpaidCents } = event.data;
        return commands(new CreditInvoiceOverpaymentCommand({ companyId, invoiceId, paymentId, currency, amountCents: overpaidCents }, context));
      }
      default:
        return NO_REACTION;
    }
  },
};

const eventOf = (recorded: RecordedEvent) => ({ type: recorded.type, data: recorded.data }) as Handled;
const commands = (...list: Reaction['commands']): Reaction => ({ commands: list, timers: [] });
