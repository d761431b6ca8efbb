import { DomainError } from '../../platform/domain/domain-error';

// The SME-side two-person rule on a Split's money (issue 30, DESIGN 15 "Agreement": two different people).

/** The member who asked for a pay-out-now or a margin release above the threshold cannot be the one who confirms it. */
export class SplitSelfApprovalError extends DomainError {
  readonly code = 'SELF_APPROVAL';
  readonly kind = 'forbidden';
  constructor() {
    super('You asked for this; another finance or owner member must confirm it');
  }
}

/** Nothing of this kind waits for a second member on this Split (never asked, already confirmed, or done another way). */
export class SplitNothingToConfirmError extends DomainError {
  readonly code = 'SPLIT_NOTHING_TO_CONFIRM';
  readonly kind = 'conflict';
  constructor(what: string) {
    super(`No ${what} of this Split waits for a second member`);
  }
}
