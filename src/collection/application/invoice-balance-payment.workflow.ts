import { NO_REACTION, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { BALANCE_STREAM_PREFIX, BalanceEvent } from '../../payout-embed';
import { RecordInvoicePaymentMessage } from './record-invoice-payment.handler';

type InvoicePaidFromBalance = Extract<BalanceEvent, { type: 'company_balance.invoice_paid' }>;

/**
 * An invoice paid from the enterprise's balance spans two streams: the balance stream takes the money
 * (`company_balance.invoice_paid`, the recorded intent and effect), then the invoice records the payment.
 * The HTTP handler does both at once; this workflow makes the second half durable, as the
 * `split_margin_credit` workflow does for margins: each debit is recorded on its invoice once per
 * paymentId, also when the process died between the two appends (it catches up at start). When the
 * invoice was meanwhile paid by other means, the whole debit is an overpayment and the invoice's
 * overpayment rule credits it back to the balance: money taken is never left unrecorded.
 * Its own name (not `invoice_collection`): a new subscriber reads the balance streams from their start.
 */
export const invoiceBalancePaymentWorkflow: Workflow<null> = {
  name: 'invoice_balance_payment',
  streams: [BALANCE_STREAM_PREFIX],
  timers: [],
  handles: (event) => event.type === 'company_balance.invoice_paid',
  load: async () => null,
  react(input) {
    if (input.kind !== 'event') return NO_REACTION;
    const { invoiceId, paymentId, amountCents } = input.event.data as InvoicePaidFromBalance['data'];
    const context = workflowContext('system:collection', input);
    return { commands: [new RecordInvoicePaymentMessage(invoiceId, paymentId, 'BALANCE', amountCents, context)], timers: [] };
  },
};
