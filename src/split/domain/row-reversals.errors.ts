import { DomainError } from '../../platform/domain/domain-error';

/** A reversal takes back money a row transferred: the row must have reached its contractor (409). */
export class DistributionNotTransferredError extends DomainError {
  readonly code = 'DISTRIBUTION_NOT_TRANSFERRED';
  readonly kind = 'conflict';
  constructor() {
    super('This row has not been transferred to its contractor; only a transferred row can be reversed');
  }
}

/** The amount of a reversal: whole minor units, positive, at most 10^15 (400). */
export class ReversalAmountInvalidError extends DomainError {
  readonly code = 'REVERSAL_AMOUNT_INVALID';
  readonly kind = 'invalid';
  constructor(maxCents: string) {
    super(`amountCents must be a positive whole number of minor units, at most ${maxCents}`, [{ field: 'amountCents', message: 'must be positive' }]);
  }
}

/** Never more than the row's net transferred amount minus its earlier reversals (422, nothing changes). */
export class ReversalExceedsTransferredError extends DomainError {
  readonly code = 'REVERSAL_EXCEEDS_TRANSFERRED';
  readonly kind = 'unprocessable';
  constructor(requestedCents: string, reversibleCents: string) {
    super(`A reversal of ${requestedCents} exceeds what this row can still give back (${reversibleCents}: its net transfer less earlier reversals)`, [
      { field: 'amountCents', message: `at most ${reversibleCents}`, reversibleCents },
    ]);
  }
}

/** Re-pointing or taking back is for a row whose transfer failed for good (409). */
export class DistributionNotFailedError extends DomainError {
  readonly code = 'DISTRIBUTION_NOT_FAILED';
  readonly kind = 'conflict';
  constructor() {
    super('This row has not failed for good; only a row past its retry horizon can be re-pointed or taken back');
  }
}

/** A re-pointed row names a contractor no row of the Split names yet (it cannot be the one that failed) (400). */
export class RepointContractorTakenError extends DomainError {
  readonly code = 'REPOINT_CONTRACTOR_ALREADY_ON_SPLIT';
  readonly kind = 'invalid';
  constructor() {
    super('This contractor already has a row on the Split (or is the one whose transfer failed): re-point the row to another contractor', [
      { field: 'contractor', message: 'already on this Split' },
    ]);
  }
}

/** A row elected for an early payout pays a wallet: the new contractor needs one on file (422). */
export class RepointNeedsWalletEmailError extends DomainError {
  readonly code = 'REPOINT_NEEDS_WALLET_EMAIL';
  readonly kind = 'unprocessable';
  constructor() {
    super('This row is elected for an early payout: the contractor it is re-pointed to needs a wallet email on file', [
      { field: 'contractor', message: 'no wallet email on file' },
    ]);
  }
}
