import { DomainError } from '../../platform/domain/domain-error';

/** No invoice with this id, or one billed to another company (existence is never leaked: 404, not 403). */
export class InvoiceNotFoundError extends DomainError {
  readonly code = 'INVOICE_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Invoice not found');
  }
}

/** The invoice is paid in full: nothing more is taken from the balance. */
export class InvoiceAlreadyPaidError extends DomainError {
  readonly code = 'INVOICE_ALREADY_PAID';
  readonly kind = 'conflict';
  constructor(invoiceId: string) {
    super(`Invoice ${invoiceId} is paid in full`);
  }
}

/** A balance payment may not exceed what is still owed (money sent by card or bank transfer may: the rest is credited back). */
export class InvoicePaymentExceedsOutstandingError extends DomainError {
  readonly code = 'INVOICE_PAYMENT_EXCEEDS_OUTSTANDING';
  readonly kind = 'unprocessable';
  constructor(outstandingCents: string, amountCents: string) {
    super(`The payment of ${amountCents} is more than the ${outstandingCents} still owed`, [{ field: 'amountCents', message: `at most ${outstandingCents}`, outstandingCents }]);
  }
}

/** A payment must move money. */
export class InvoicePaymentAmountInvalidError extends DomainError {
  readonly code = 'INVOICE_PAYMENT_AMOUNT_INVALID';
  readonly kind = 'invalid';
  constructor(amountCents: string) {
    super(`amountCents must be a positive whole number of minor units, got ${amountCents}`, [{ field: 'amountCents', message: 'must be positive' }]);
  }
}

/** No parked bank transfer with this id, reference and amount (what the sender quotes proves it sent it; nothing is leaked). */
export class BankTransferNotFoundError extends DomainError {
  readonly code = 'BANK_TRANSFER_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Bank transfer not found');
  }
}

/** Only a PARKED transfer is resolved, once: a matched one already paid its invoice; an applied or returned one is done. */
export class BankTransferNotParkedError extends DomainError {
  readonly code = 'BANK_TRANSFER_NOT_PARKED';
  readonly kind = 'conflict';
  constructor(transferId: string, status: string) {
    super(`Bank transfer ${transferId} is ${status}, not PARKED`, [{ field: 'transferId', message: `is ${status}`, status }]);
  }
}

/** A parked transfer pays an invoice of its own currency only. */
export class BankTransferCurrencyMismatchError extends DomainError {
  readonly code = 'BANK_TRANSFER_CURRENCY_MISMATCH';
  readonly kind = 'unprocessable';
  constructor(transferCurrency: string, invoiceCurrency: string) {
    super(`The transfer is in ${transferCurrency}, the invoice in ${invoiceCurrency}`, [{ field: 'transferId', message: `in ${transferCurrency}` }]);
  }
}
