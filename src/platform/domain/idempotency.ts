import { sha256Hex } from '../ids/ids';
import { canonicalJson } from './canonical-json';
import { DomainError } from './domain-error';

/**
 * The same idempotency key came with a different request (Stripe's behaviour): 409, nothing written,
 * the stored request is not replayed as if it were this one.
 */
export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  readonly kind = 'conflict';
  constructor(field = 'idempotencyKey') {
    super(`This ${field} was already used with a different request body`, [{ field, message: 'already used with a different body' }]);
  }
}

/**
 * A request with this idempotency key is still being answered (Stripe answers the same): 409, nothing
 * run; retry once the first has its answer, which the retry then replays.
 */
export class IdempotencyKeyInUseError extends DomainError {
  readonly code = 'IDEMPOTENCY_KEY_IN_USE';
  readonly kind = 'conflict';
  constructor() {
    super('A request with this Idempotency-Key is still in progress; retry it once that one has answered', [{ field: 'Idempotency-Key', message: 'in progress' }]);
  }
}

/**
 * SHA-256 (hex) of a request's canonical JSON: object keys sorted, `undefined` fields dropped, so the
 * same request sent with its fields in another order, or with an optional field left out instead of
 * sent as its default by the caller's normalisation, has the same fingerprint. Fingerprints are
 * stored: the bytes hashed must never change (`canonicalJson`'s 'fingerprint' mode).
 */
export function requestFingerprint(request: unknown): string {
  return sha256Hex(canonicalJson(request, 'fingerprint'));
}
