import { DomainError } from '../../platform/domain/domain-error';

export class EmailAlreadyRegisteredError extends DomainError {
  readonly code = 'EMAIL_ALREADY_REGISTERED';
  readonly kind = 'conflict';
  constructor() {
    super('An account with this email already exists');
  }
}

export class InvalidCredentialsError extends DomainError {
  readonly code = 'INVALID_CREDENTIALS';
  readonly kind = 'unauthenticated';
  constructor() {
    super('Email or password is wrong');
  }
}

/** Too many sign-in attempts for this account or from this client in the current window. */
export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly kind = 'rate_limited';
  constructor(override readonly retryAfterSeconds: number) {
    super(`Too many sign-in attempts; try again in ${retryAfterSeconds} s`);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
  readonly kind = 'unauthenticated';
}

/** A magic link that does not exist, has expired or was already used. */
export class MagicLinkInvalidError extends DomainError {
  readonly code = 'MAGIC_LINK_INVALID';
  readonly kind = 'unauthenticated';
  constructor() {
    super('This sign-in link is invalid, expired or was already used; ask for a new one');
  }
}

/** Issue 29 item 9: a password reset link that does not exist, has expired or was already used. */
export class PasswordResetInvalidError extends DomainError {
  readonly code = 'PASSWORD_RESET_INVALID';
  readonly kind = 'unauthenticated';
  constructor() {
    super('This password reset link is invalid, expired or was already used; ask for a new one');
  }
}

export class CredentialNotAllowedError extends DomainError {
  readonly code = 'CREDENTIAL_NOT_ALLOWED';
  readonly kind = 'forbidden';
}

export class MissingScopeError extends DomainError {
  readonly code = 'MISSING_SCOPE';
  readonly kind = 'forbidden';
  constructor(scope: string) {
    super(`This API key lacks the ${scope} scope`);
  }
}

export class ApiKeyNotFoundError extends DomainError {
  readonly code = 'API_KEY_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('API key not found');
  }
}

/** A cookie-authenticated call whose Origin is not the service's own (cross-site request forgery). */
export class CsrfOriginMismatchError extends DomainError {
  readonly code = 'CSRF_ORIGIN_MISMATCH';
  readonly kind = 'forbidden';
  constructor() {
    super("A call authenticated by the session cookie must come from the service's own origin");
  }
}

/**
 * The caller's account has not proven its address yet (a password sign-up whose emailed link was not
 * followed): money cannot leave to it (422, as the withdrawal's other state rules; 403 stays the guard's
 * answer for a credential of the wrong kind or scope. docs/api.md#email-verification, issue 24).
 */
export class EmailNotVerifiedError extends DomainError {
  readonly code = 'EMAIL_NOT_VERIFIED';
  readonly kind = 'unprocessable';
  constructor() {
    super('Confirm your email address first: follow the link we sent to it');
  }
}
