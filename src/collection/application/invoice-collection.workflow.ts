import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { NO_REACTION, Reaction, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { invoiceIdOf, SPLIT_STREAM_PREFIX } from '../../split';
import { ORDER_STREAM_PREFIX, orderStreamId } from '../../checkout';
import { CreditInvoiceOverpaymentMessage } from '../../payout-embed';
import { invoiceSteps } from '../domain/collection-schedule';
import { invoiceDecider, InvoiceState, invoiceExists, outstandingOf } from '../domain/invoice.decider';
import { BANK_TRANSFER_STREAM_PREFIX, BankTransferEvent, COLLECTIONS_MERCHANT, INVOICE_STREAM_PREFIX, InvoiceEvent, invoiceStreamId } from '../domain/invoice.events';
import { invoiceStepTimer } from './collection.timers';
import { IssueInvoiceMessage } from './issue-invoice.handler';
import { MarkInvoiceOverdueMessage } from './mark-invoice-overdue.handler';
import { RecordInvoicePaymentMessage } from './record-invoice-payment.handler';
import { SendInvoiceReminderMessage } from './send-invoice-reminder.handler';

const ACTOR = 'system:collection';

type Handled =
  | InvoiceEvent
  | BankTransferEvent
  | { type: 'split.funded'; data: { splitId: string; invoiced?: boolean } }
  | { type: 'checkout.order.paid'; data: { orderId: string; merchantCompanyId: string; amountMinorUnits: string } };

/** What react needs beyond the event: the invoice a timer is about, or the invoice a paid card order references. */
export type CollectionWorkflowState = { invoice: InvoiceState } | { orderInvoiceId: string | null } | null;

/** The invoice a collections order pays: its `externalOrderRef`, as `checkout.order.created` recorded it. */
const orderInvoice = {
  initialState: (): string | null => null,
  evolve: (state: string | null, event: { type: string; data: object }): string | null =>
    event.type === 'checkout.order.created' ? ((event.data as { externalOrderRef?: string | null }).externalOrderRef ?? null) : state,
};

/**
 * Collection (issue 27): a funded Split -> its invoice (and the AP contact's mail) -> the invoice's steps on
 * the clock (a reminder 3 days before the due date, OVERDUE and a reminder on it, a reminder 7 days after;
 * a paid invoice skips them); a matched (or parked, then applied) bank transfer or a paid collections card order -> the invoice's payment; an overpayment -> credited
 * to the enterprise's balance. The HTTP handlers do the last two at once; this is what makes them durable.
 */
export const invoiceCollectionWorkflow: Workflow<CollectionWorkflowState> = {
  name: 'invoice_collection',
  streams: [SPLIT_STREAM_PREFIX, INVOICE_STREAM_PREFIX, BANK_TRANSFER_STREAM_PREFIX, ORDER_STREAM_PREFIX],
  timers: [invoiceStepTimer],
  handles: (event) =>
    // Splits funded before invoices existed have no `invoiced` and get no invoice (docs/decisions.md).
    (event.type === 'split.funded' && (event.data as { invoiced?: boolean }).invoiced === true) ||
    event.type === 'invoice.issued' ||
    (event.type === 'invoice.payment_recorded' && (event.data as { overpaidCents?: string }).overpaidCents !== '0') ||
    (event.type === 'bank_transfer.received' && (event.data as { status?: string }).status === 'MATCHED') ||
    (event.type === 'bank_transfer.resolved' && (event.data as { resolution?: string }).resolution === 'APPLIED') ||
    (event.type === 'checkout.order.paid' && (event.data as { merchantCompanyId?: string }).merchantCompanyId === COLLECTIONS_MERCHANT),
  // Each invoice's events in log order, different invoices concurrently: one after another, every command
  // waited for the durable commit of the one before (decisions.md, "Invoice collection runs invoices side by side").
  partitionOf: (event) => invoiceOf(eventOf(event)),
  async load(input, reader) {
    if (input.kind === 'timer') return { invoice: (await reader.load(invoiceStreamId(invoiceStepTimer.payloadOf(input.timer).invoiceId), invoiceDecider)).state };
    if (input.event.type !== 'checkout.order.paid') return null;
    return { orderInvoiceId: (await reader.load(orderStreamId((input.event.data as { orderId: string }).orderId), orderInvoice)).state };
  },
  react(input, state) {
    const context = workflowContext(ACTOR, input);
    if (input.kind === 'timer') {
      const { invoiceId, step } = invoiceStepTimer.payloadOf(input.timer);
      const invoice = state && 'invoice' in state ? state.invoice : null;
      if (!invoice || !invoiceExists(invoice) || outstandingOf(invoice) === 0n) return NO_REACTION;
      const remind = new SendInvoiceReminderMessage(invoiceId, step, context);
      return commands(...(step === 'DUE' ? [new MarkInvoiceOverdueMessage(invoiceId, context), remind] : [remind]));
    }
    const event = eventOf(input.event);
    switch (event.type) {
      case 'split.funded':
        return commands(new IssueInvoiceMessage(event.data.splitId, context));
      case 'invoice.issued': {
        const { invoiceId, issuedAt, dueAt } = event.data;
        return { commands: [], timers: invoiceSteps(issuedAt, dueAt).map(({ step, at }) => invoiceStepTimer.at(at, { invoiceId, step })) };
      }
      case 'bank_transfer.received':
      case 'bank_transfer.resolved': {
        const { invoiceId, transferId, amountCents } = event.data;
        return invoiceId ? commands(new RecordInvoicePaymentMessage(invoiceId, transferId, 'BANK_TRANSFER', amountCents, context)) : NO_REACTION;
      }
      case 'checkout.order.paid': {
        const invoiceId = state && 'orderInvoiceId' in state ? state.orderInvoiceId : null;
        const { orderId, amountMinorUnits } = event.data;
        return invoiceId ? commands(new RecordInvoicePaymentMessage(invoiceId, orderId, 'CARD', amountMinorUnits, context)) : NO_REACTION;
      }
      case 'invoice.payment_recorded': {
        const { enterpriseCompanyId: companyId, invoiceId, paymentId, currency, overpaidCents } = event.data;
        return commands(new CreditInvoiceOverpaymentMessage({ companyId, invoiceId, paymentId, currency, amountCents: overpaidCents }, context));
      }
      default:
        return NO_REACTION;
    }
  },
};

const eventOf = (recorded: RecordedEvent) => ({ type: recorded.type, data: recorded.data }) as Handled;

/**
 * The invoice an event is about. A paid card order names its invoice only in its own stream (read by
 * `load`), so it keys by the order: recording its payment may then meet another payment of the same
 * invoice, which the invoice's stream revision orders (the append is retried).
 */
export function invoiceOf(event: Handled): string {
  switch (event.type) {
    case 'split.funded':
      return invoiceIdOf(event.data.splitId);
    case 'checkout.order.paid':
      return `order:${event.data.orderId}`;
    case 'bank_transfer.received':
    case 'bank_transfer.resolved':
      return event.data.invoiceId ?? `transfer:${event.data.transferId}`;
    default:
      return event.data.invoiceId;
  }
}
const commands = (...list: Reaction['commands']): Reaction => ({ commands: list, timers: [] });
