import { assertNever, Decider } from '../../platform/domain/decider';
import { Cents, formatCents, isCentsString, parseCents } from '../../platform/money/money';
import { InvoiceNotFoundError, InvoicePaymentAmountInvalidError } from './collection.errors';
import { CollectionStatus, InvoiceEvent, InvoiceIssued, PaymentMethod, Reminder } from './invoice.events';
import { CommandMetadata } from '../../platform/domain/command';

export type InvoiceCommand =
  | { type: 'IssueInvoice'; data: Omit<InvoiceIssued['data'], 'collectionStatus'>; metadata: CommandMetadata }
  | { type: 'RecordPayment'; data: { invoiceId: string; paymentId: string; method: PaymentMethod; amountCents: string }; metadata: CommandMetadata }
  | { type: 'MarkOverdue'; data: { invoiceId: string }; metadata: CommandMetadata }
  | { type: 'SendReminder'; data: { invoiceId: string; reminder: Reminder }; metadata: CommandMetadata };

export interface InvoicePayment {
  paymentId: string;
  method: PaymentMethod;
  amountCents: Cents;
  receivedAt: string;
}

export interface ExistingInvoice {
  status: 'issued';
  invoiceId: string;
  splitId: string;
  smeCompanyId: string;
  enterpriseCompanyId: string;
  apContactBusinessProfileId: string;
  currency: string;
  amountCents: Cents;
  paymentReference: string;
  issuedAt: string;
  dueAt: string;
  /** Applied to the invoice (overpayments excluded). */
  paidCents: Cents;
  overdue: boolean;
  payments: ReadonlyMap<string, InvoicePayment>;
  reminders: ReadonlySet<Reminder>;
}

export type InvoiceState = { status: 'none' } | ExistingInvoice;

export const invoiceExists = (state: InvoiceState): state is ExistingInvoice => state.status !== 'none';
export const outstandingOf = (invoice: ExistingInvoice): Cents => invoice.amountCents - invoice.paidCents;

/** PAID once nothing is owed; else OVERDUE after the due date; else PARTIALLY_PAID once something was paid; else OPEN. */
export function collectionStatusOf(invoice: Pick<ExistingInvoice, 'amountCents' | 'paidCents' | 'overdue'>): CollectionStatus {
  if (invoice.paidCents >= invoice.amountCents) return 'PAID';
  if (invoice.overdue) return 'OVERDUE';
  return invoice.paidCents > 0n ? 'PARTIALLY_PAID' : 'OPEN';
}

/**
 * One invoice per funded Split, on its own stream (`invoice-<inv_>`, docs/decisions.md "Issue 27"). Issued
 * once; payments are recorded once per paymentId (any amount: what exceeds the rest owed is an overpayment,
 * credited to the enterprise's balance); overdue once, at or after the due date, unless paid; each
 * reminder once, unless paid.
 */
export const invoiceDecider: Decider<InvoiceCommand, InvoiceEvent, InvoiceState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    switch (command.type) {
      case 'IssueInvoice':
        return issueInvoice(command.data, state);
      case 'RecordPayment':
        return recordPayment(command.data, state, command.metadata);
      case 'MarkOverdue':
        return markOverdue(command.data, state, command.metadata);
      case 'SendReminder':
        return sendReminder(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    if (event.type === 'invoice.issued') {
      const d = event.data;
      return {
        status: 'issued',
        invoiceId: d.invoiceId,
        splitId: d.splitId,
        smeCompanyId: d.smeCompanyId,
        enterpriseCompanyId: d.enterpriseCompanyId,
        apContactBusinessProfileId: d.apContactBusinessProfileId,
        currency: d.currency,
        amountCents: parseCents(d.amountCents),
        paymentReference: d.paymentReference,
        issuedAt: d.issuedAt,
        dueAt: d.dueAt,
        paidCents: 0n,
        overdue: false,
        payments: new Map(),
        reminders: new Set(),
      };
    }
    if (!invoiceExists(state)) return state;
    switch (event.type) {
      case 'invoice.payment_recorded': {
        const d = event.data;
        const payment: InvoicePayment = { paymentId: d.paymentId, method: d.method, amountCents: parseCents(d.amountCents), receivedAt: d.receivedAt };
        return { ...state, paidCents: state.paidCents + parseCents(d.appliedCents), payments: new Map(state.payments).set(d.paymentId, payment) };
      }
      case 'invoice.overdue':
        return { ...state, overdue: true };
      case 'invoice.reminder_sent':
        return { ...state, reminders: new Set(state.reminders).add(event.data.reminder) };
      case 'invoice.paid':
        return state;
      default:
        return assertNever(event);
    }
  },
};

function issueInvoice(data: Extract<InvoiceCommand, { type: 'IssueInvoice' }>['data'], state: InvoiceState): InvoiceEvent[] {
  if (invoiceExists(state)) return [];
  return [{ type: 'invoice.issued', data: { ...data, collectionStatus: 'OPEN' } }];
}

function existing(state: InvoiceState): ExistingInvoice {
  if (!invoiceExists(state)) throw new InvoiceNotFoundError();
  return state;
}

function recordPayment(data: Extract<InvoiceCommand, { type: 'RecordPayment' }>['data'], state: InvoiceState, meta: CommandMetadata): InvoiceEvent[] {
  const invoice = existing(state);
  if (invoice.payments.has(data.paymentId)) return [];
  if (!isCentsString(data.amountCents) || parseCents(data.amountCents) <= 0n) throw new InvoicePaymentAmountInvalidError(data.amountCents);
  const amount = parseCents(data.amountCents);
  const outstanding = outstandingOf(invoice);
  const applied = amount < outstanding ? amount : outstanding;
  const after = { ...invoice, paidCents: invoice.paidCents + applied };
  const status = collectionStatusOf(after);
  const facts = { invoiceId: invoice.invoiceId, splitId: invoice.splitId, collectionStatus: status };
  const events: InvoiceEvent[] = [
    {
      type: 'invoice.payment_recorded',
      data: {
        ...facts,
        enterpriseCompanyId: invoice.enterpriseCompanyId,
        currency: invoice.currency,
        paymentId: data.paymentId,
        method: data.method,
        amountCents: formatCents(amount),
        appliedCents: formatCents(applied),
        overpaidCents: formatCents(amount - applied),
        outstandingCents: formatCents(outstandingOf(after)),
        receivedAt: meta.now,
      },
    },
  ];
  if (outstanding > 0n && status === 'PAID') {
    events.push({
      type: 'invoice.paid',
      data: {
        ...facts,
        smeCompanyId: invoice.smeCompanyId,
        enterpriseCompanyId: invoice.enterpriseCompanyId,
        currency: invoice.currency,
        amountCents: formatCents(invoice.amountCents),
        paidAt: meta.now,
      },
    });
  }
  return events;
}

function markOverdue(data: Extract<InvoiceCommand, { type: 'MarkOverdue' }>['data'], state: InvoiceState, meta: CommandMetadata): InvoiceEvent[] {
  const invoice = existing(state);
  if (invoice.overdue || outstandingOf(invoice) === 0n || meta.now < invoice.dueAt) return [];
  return [
    {
      type: 'invoice.overdue',
      data: {
        invoiceId: invoice.invoiceId,
        splitId: invoice.splitId,
        collectionStatus: 'OVERDUE',
        smeCompanyId: invoice.smeCompanyId,
        enterpriseCompanyId: invoice.enterpriseCompanyId,
        currency: invoice.currency,
        outstandingCents: formatCents(outstandingOf(invoice)),
        dueAt: invoice.dueAt,
        overdueAt: meta.now,
      },
    },
  ];
}

function sendReminder(data: Extract<InvoiceCommand, { type: 'SendReminder' }>['data'], state: InvoiceState, meta: CommandMetadata): InvoiceEvent[] {
  const invoice = existing(state);
  if (invoice.reminders.has(data.reminder) || outstandingOf(invoice) === 0n) return [];
  return [
    {
      type: 'invoice.reminder_sent',
      data: {
        invoiceId: invoice.invoiceId,
        splitId: invoice.splitId,
        collectionStatus: collectionStatusOf(invoice),
        reminder: data.reminder,
        outstandingCents: formatCents(outstandingOf(invoice)),
        sentAt: meta.now,
      },
    },
  ];
}
