import { DomainError, ErrorDetail } from '../../platform/domain/domain-error';

/** `roster.<i>.<name>`: where a row-level rule points in the request body. */
export const rosterField = (rowIndex: number, name: string) => `roster.${rowIndex}.${name}`;

const detailAt = (field: string | undefined, message: string): ErrorDetail[] => (field === undefined ? [] : [{ field, message }]);
const rowDetail = (rowIndex: number | undefined, name: string, message: string): ErrorDetail[] =>
  detailAt(rowIndex === undefined ? undefined : rosterField(rowIndex, name), message);

// ---- Decider rules -------------------------------------------------------------------------------

/** No Split with this id, or one owned by another company (existence is never leaked: 404, not 403). */
export class SplitNotFoundError extends DomainError {
  readonly code = 'SPLIT_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Split not found');
  }
}

export class SplitNotPendingApprovalError extends DomainError {
  readonly code = 'SPLIT_NOT_PENDING_APPROVAL';
  readonly kind = 'conflict';
  constructor(readonly currentStatus: string) {
    super(`Split is ${currentStatus}; this is allowed only while it is PENDING_APPROVAL`);
  }
}

/**
 * The enterprise approved or rejected a revision of the Split that is no longer the current one (the SME
 * revised the roster after it was read): nothing is decided; read the Split again and review what changed.
 */
export class SplitChangedSinceReviewError extends DomainError {
  readonly code = 'SPLIT_CHANGED_SINCE_REVIEW';
  readonly kind = 'conflict';
  constructor(
    readonly reviewedRevision: number,
    readonly currentRevision: number,
  ) {
    super(`The Split changed since it was reviewed (revision ${reviewedRevision}; it is now at revision ${currentRevision}): read it again and review what changed`, [
      { field: 'revision', message: `is ${reviewedRevision}; the Split is now at revision ${currentRevision}`, currentRevision },
    ]);
  }
}

export class SplitRosterSizeError extends DomainError {
  readonly code = 'SPLIT_ROSTER_SIZE';
  readonly kind = 'invalid';
  constructor(rows: number, min: number, max: number) {
    super(`A roster has ${min} to ${max} rows, got ${rows}`, [{ field: 'roster', message: `must have ${min} to ${max} rows` }]);
  }
}

/** A row amount or the total is not a minor-unit amount the service can carry (digits, at most 10^15). */
export class SplitAmountInvalidError extends DomainError {
  readonly code = 'SPLIT_AMOUNT_INVALID';
  readonly kind = 'invalid';
  constructor(fields: string[], max: string) {
    super(
      'Amounts are strings of decimal digits in minor units, without leading zeros, at most ' + max,
      fields.map((field) => ({ field, message: `must be digits in minor units, at most ${max}` })),
    );
  }
}

/** Two rows name the same contractor (creator payment profile, or SubVendor by id or by email). */
export class SplitDuplicateContractorError extends DomainError {
  readonly code = 'SPLIT_DUPLICATE_CONTRACTOR';
  readonly kind = 'invalid';
  constructor(rowIndexes: number[]) {
    super(
      'A roster names each contractor once: put the amount of both rows on one row',
      rowIndexes.map((i) => ({ field: rosterField(i, 'contractor'), message: 'names a contractor an earlier row already names' })),
    );
  }
}

export class SplitRowAmountNotPositiveError extends DomainError {
  readonly code = 'SPLIT_ROW_AMOUNT_NOT_POSITIVE';
  readonly kind = 'invalid';
  constructor(rowIndexes: number[]) {
    super(
      'Every roster row amount must be positive',
      rowIndexes.map((i) => ({ field: rosterField(i, 'amountCents'), message: 'must be greater than 0' })),
    );
  }
}

export class SplitRosterSumZeroError extends DomainError {
  readonly code = 'SPLIT_ROSTER_SUM_ZERO';
  readonly kind = 'invalid';
  constructor() {
    super('The roster sum is zero', [{ field: 'roster', message: 'sum of amountCents must be greater than 0' }]);
  }
}

/** Only reachable when totalAmountCents is omitted: the roster sum itself is then the bill. */
export class SplitRosterSumTooLargeError extends DomainError {
  readonly code = 'SPLIT_ROSTER_SUM_TOO_LARGE';
  readonly kind = 'invalid';
  constructor(sum: string, max: string) {
    super(`The roster sum ${sum} exceeds the largest amount ${max}`, [{ field: 'roster', message: `sum of amountCents must be at most ${max}` }]);
  }
}

export class SplitTotalBelowRosterSumError extends DomainError {
  readonly code = 'SPLIT_TOTAL_BELOW_ROSTER_SUM';
  readonly kind = 'invalid';
  constructor(total: string, sum: string) {
    super(`totalAmountCents ${total} is less than the roster sum ${sum}`, [{ field: 'totalAmountCents', message: `must be at least the roster sum ${sum}` }]);
  }
}

export class SplitMarginCapExceededError extends DomainError {
  readonly code = 'SPLIT_MARGIN_CAP_EXCEEDED';
  readonly kind = 'invalid';
  constructor(margin: string, total: string) {
    super(`The margin ${margin} exceeds 20% of totalAmountCents ${total}`, [
      { field: 'totalAmountCents', message: 'margin (total minus roster sum) must be at most 20% of the total' },
    ]);
  }
}

/**
 * A contractor (creator, SubVendor or email row) without a wallet email on file cannot be elected for
 * instant payout (docs/api.md#error-codes-of-these-calls).
 */
export class SplitInstantPayoutNeedsWalletEmailError extends DomainError {
  readonly code = 'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL';
  readonly kind = 'unprocessable';
  constructor(rowIndexes: number[]) {
    super(
      'A contractor without a wallet email on file cannot be elected for instant payout',
      rowIndexes.map((i) => ({ field: rosterField(i, 'earlyPayoutElected'), message: 'the contractor has no wallet email on file' })),
    );
  }
}

// ---- Party resolution (application layer, before the decider) ----------------------------------

export class SplitContractorNotActiveCreatorError extends DomainError {
  readonly code = 'SPLIT_CONTRACTOR_NOT_ACTIVE_CREATOR';
  readonly kind = 'unprocessable';
  constructor(rowIndex?: number, name = 'contractorPaymentProfileId') {
    super("contractorPaymentProfileId does not resolve to an active creator's own payment profile", rowDetail(rowIndex, name, 'not an active creator payment profile'));
  }
}

export class SplitSubVendorNotOwnedError extends DomainError {
  readonly code = 'SPLIT_SUB_VENDOR_NOT_OWNED';
  readonly kind = 'unprocessable';
  constructor(rowIndex?: number, name = 'subVendorId') {
    super("subVendorId is not on the caller's roster", rowDetail(rowIndex, name, "not a sub-vendor of the caller's company"));
  }
}

export class SplitApContactInvalidError extends DomainError {
  readonly code = 'SPLIT_AP_CONTACT_INVALID';
  readonly kind = 'unprocessable';
  constructor(field: string | undefined = 'apContactBusinessProfileId') {
    super('apContactBusinessProfileId is not a business profile of the enterprise', detailAt(field, 'not a business profile of the enterprise'));
  }
}

export class SplitEnterpriseUnknownError extends DomainError {
  readonly code = 'SPLIT_ENTERPRISE_UNKNOWN';
  readonly kind = 'unprocessable';
  constructor(field: string | undefined = 'enterpriseCompanyId') {
    super('enterpriseCompanyId is not a known company other than the caller', detailAt(field, 'unknown company, or the caller itself'));
  }
}

/**
 * Issue 27: the enterprise has an invoice overdue more than ENTERPRISE_OVERDUE_BLOCK_DAYS; it approves no
 * new Split (and its auto-accept is suspended) until it pays (docs/api.md#invoices).
 */
export class EnterpriseInvoiceOverdueError extends DomainError {
  readonly code = 'ENTERPRISE_INVOICE_OVERDUE';
  readonly kind = 'unprocessable';
  constructor(invoiceId: string, daysOverdue: number) {
    super(`Invoice ${invoiceId} is ${daysOverdue} days overdue: pay it before approving new Splits`, [{ field: 'invoiceId', message: `overdue ${daysOverdue} days`, invoiceId }]);
  }
}
