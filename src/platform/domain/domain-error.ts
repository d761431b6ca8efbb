/**
 * How a broken rule answers over HTTP. Domain code names the kind; the one exception filter maps it
 * to a status, so no decider knows about HTTP.
 */
export type ErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'unprocessable' // 422
  | 'rate_limited' // 429 (with Retry-After when the error has retryAfterSeconds)
  | 'unavailable'; // 503

export interface ErrorDetail {
  field?: string;
  message: string;
  [extra: string]: unknown;
}

/** Base of every rule's error: a stable upper-snake code, a kind and a human message. */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly kind: ErrorKind;
  /** When the caller may try again (sent as `Retry-After`); only rate limits set it. */
  readonly retryAfterSeconds?: number;
  constructor(
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly kind = 'invalid';
}
