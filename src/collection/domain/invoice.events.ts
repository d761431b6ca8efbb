import { DomainEvent } from '../../platform/domain/decider';
import { PLATFORM_COLLECTIONS_MERCHANT } from '../../checkout';
import { COLLECTION_STATUSES, INVOICE_STREAM_PREFIX, invoiceIdOf, type CollectionStatus } from '../../split';

export { COLLECTION_STATUSES, INVOICE_STREAM_PREFIX, invoiceIdOf };
export type { CollectionStatus };

/** How an invoice payment arrived (docs/api.md#invoices). */
export const PAYMENT_METHODS = ['BALANCE', 'CARD', 'BANK_TRANSFER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The three reminders to the AP contact: 3 days before the due date, on it, 7 days after. */
export const REMINDERS = ['BEFORE_DUE', 'DUE', 'AFTER_DUE'] as const;
export type Reminder = (typeof REMINDERS)[number];

/** Who the invoice is about; every invoice event carries `splitId` and the status it leaves (split/domain/split-collection.ts). */
interface InvoiceFacts {
  invoiceId: string;
  splitId: string;
  collectionStatus: CollectionStatus;
}

/** The enterprise is billed at funding: total + enterprise fee, due at funding + its net terms. */
export type InvoiceIssued = DomainEvent<
  'invoice.issued',
  InvoiceFacts & {
    smeCompanyId: string;
    enterpriseCompanyId: string;
    apContactBusinessProfileId: string;
    currency: string;
    amountCents: string;
    paymentReference: string;
    issuedAt: string;
    dueAt: string;
  }
>;

/**
 * Money for the invoice arrived (`paymentId`: the balance payment, the card order or the bank transfer).
 * `appliedCents` reduced what is owed; `overpaidCents` (the rest) is credited to the enterprise's balance.
 */
export type InvoicePaymentRecorded = DomainEvent<
  'invoice.payment_recorded',
  InvoiceFacts & {
    enterpriseCompanyId: string;
    currency: string;
    paymentId: string;
    method: PaymentMethod;
    amountCents: string;
    appliedCents: string;
    overpaidCents: string;
    outstandingCents: string;
    receivedAt: string;
  }
>;

/** Nothing is owed any more (public event `split.invoice.paid`). */
export type InvoicePaid = DomainEvent<'invoice.paid', InvoiceFacts & { smeCompanyId: string; enterpriseCompanyId: string; currency: string; amountCents: string; paidAt: string }>;

/** The due date passed with money still owed (public event `split.invoice.overdue`). */
export type InvoiceOverdue = DomainEvent<
  'invoice.overdue',
  InvoiceFacts & { smeCompanyId: string; enterpriseCompanyId: string; currency: string; outstandingCents: string; dueAt: string; overdueAt: string }
>;

/** A reminder went to the AP contact. */
export type InvoiceReminderSent = DomainEvent<'invoice.reminder_sent', InvoiceFacts & { reminder: Reminder; outstandingCents: string; sentAt: string }>;

export type InvoiceEvent = InvoiceIssued | InvoicePaymentRecorded | InvoicePaid | InvoiceOverdue | InvoiceReminderSent;

export const INVOICE_EVENT_TYPES: ReadonlySet<string> = new Set<InvoiceEvent['type']>([
  'invoice.issued',
  'invoice.payment_recorded',
  'invoice.paid',
  'invoice.overdue',
  'invoice.reminder_sent',
]);

export const invoiceStreamId = (invoiceId: string) => `${INVOICE_STREAM_PREFIX}${invoiceId}`;
/** The reference a bank transfer quotes: short enough for a transfer's remittance field, unique per invoice. */
export const paymentReferenceOf = (invoiceId: string) => `PS-${invoiceId.slice(-12).toUpperCase()}`;

/**
 * An incoming bank transfer (sandbox: POST /api/sandbox/bank-transfers). MATCHED: its reference named an
 * invoice, and the transfer is recorded as that invoice's payment; PARKED: it did not (or its currency
 * differs), and it waits for review, never lost.
 */
export type BankTransferReceived = DomainEvent<
  'bank_transfer.received',
  {
    transferId: string;
    reference: string;
    currency: string;
    amountCents: string;
    status: 'MATCHED' | 'PARKED';
    invoiceId: string | null;
    enterpriseCompanyId: string | null;
    parkedReason: string | null;
    receivedAt: string;
  }
>;

/**
 * A PARKED transfer resolved, never lost (issue 27): APPLIED to an invoice as its payment, by the enterprise
 * that sent it (it quoted the transfer's reference and amount), or RETURNED to the sender.
 */
export type BankTransferResolved = DomainEvent<
  'bank_transfer.resolved',
  {
    transferId: string;
    resolution: 'APPLIED' | 'RETURNED';
    currency: string;
    amountCents: string;
    invoiceId: string | null;
    enterpriseCompanyId: string | null;
    resolvedAt: string;
  }
>;

export type BankTransferEvent = BankTransferReceived | BankTransferResolved;
/** Where a transfer stands: as received (MATCHED or PARKED), then a parked one APPLIED or RETURNED. */
export type BankTransferStatus = BankTransferReceived['data']['status'] | BankTransferResolved['data']['resolution'];
export const BANK_TRANSFER_STREAM_PREFIX = 'banktransfer-';
export const bankTransferStreamId = (transferId: string) => `${BANK_TRANSFER_STREAM_PREFIX}${transferId}`;

/**
 * The merchant of the Checkout orders that pay invoices by card or wallet: the platform's own collections
 * account, never a company's. Its orders carry the invoice id as `externalOrderRef`; the company has no
 * webhook endpoints, and its PAID orders start no merchant payout (checkout/domain/platform-merchants.ts), so
 * they stay PAID and no `checkout.completed` is ever sent for them (docs/decisions.md, issue 27).
 */
export const COLLECTIONS_MERCHANT = PLATFORM_COLLECTIONS_MERCHANT;
