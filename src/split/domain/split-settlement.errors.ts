import { DomainError } from '../../platform/domain/domain-error';

export class SplitMarginNotSettleableError extends DomainError {
  readonly code = 'SPLIT_MARGIN_NOT_SETTLEABLE';
  readonly kind = 'conflict';
  constructor(marginStatus: string) {
    super(`The margin is ${marginStatus}; it can be settled only while PENDING (instant election) or HELD`);
  }
}

export class SplitNotFundedError extends DomainError {
  readonly code = 'SPLIT_NOT_FUNDED';
  readonly kind = 'conflict';
  constructor(status: string) {
    super(`Split is ${status}; rows can be paid out only once it is FUNDED or SETTLING`);
  }
}

export class DistributionNotFoundError extends DomainError {
  readonly code = 'DISTRIBUTION_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Distribution not found on this Split');
  }
}

export class DistributionAlreadyPaidOutError extends DomainError {
  readonly code = 'DISTRIBUTION_ALREADY_PAID_OUT';
  readonly kind = 'conflict';
  constructor() {
    super('This row has already started its transfer');
  }
}
