import { DomainError } from '../../platform/domain/domain-error';

/** A session whose member's role does not admit the route (docs/api.md#roles). */
export class RoleForbiddenError extends DomainError {
  readonly code = 'ROLE_FORBIDDEN';
  readonly kind = 'forbidden';
  constructor(role: string, admitted: readonly string[]) {
    super(typeof role === 'string' && Array.isArray(admitted) ? `A ${role} cannot make this call; it takes ${admitted.join(', ')}` : 'Your role does not allow this call');
  }
}

export class MemberNotFoundError extends DomainError {
  readonly code = 'MEMBER_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('No member of this company has that user id');
  }
}

export class MemberAlreadyExistsError extends DomainError {
  readonly code = 'MEMBER_ALREADY_EXISTS';
  readonly kind = 'conflict';
  constructor() {
    super('That person is already a member of this company');
  }
}

/** A company always keeps at least one owner. */
export class LastOwnerError extends DomainError {
  readonly code = 'LAST_OWNER';
  readonly kind = 'conflict';
  constructor() {
    super('A company keeps at least one owner: make another member owner first');
  }
}

export class InvitationNotFoundError extends DomainError {
  readonly code = 'INVITATION_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('No pending invitation of this company has that id');
  }
}

/** The person is not a member of the company asked for at sign-in or switch (404: another company is never a 403). */
export class NotAMemberError extends DomainError {
  readonly code = 'NOT_A_MEMBER';
  readonly kind = 'not_found';
  constructor() {
    super('You are not a member of that company');
  }
}
