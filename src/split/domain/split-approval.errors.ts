import { DomainError } from '../../platform/domain/domain-error';

// Two-person approval of incoming Splits (issue 30, DESIGN 15 "Agreement": a two-person rule needs two different people).

/** The person already approved this revision of the Split: a second approval must come from someone else. */
export class SplitAlreadyApprovedByYouError extends DomainError {
  readonly code = 'SPLIT_ALREADY_APPROVED_BY_YOU';
  readonly kind = 'conflict';
  constructor() {
    super('You already approved this Split; it needs the approval of another member');
  }
}

/** The approver is also a member of the SME that bills the Split: nobody approves their own bill. */
export class SplitApproverFromSmeError extends DomainError {
  readonly code = 'SPLIT_APPROVER_FROM_SME';
  readonly kind = 'forbidden';
  constructor() {
    super('You are a member of the company that sent this Split; someone who is not must approve it');
  }
}
