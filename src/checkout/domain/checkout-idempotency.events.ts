import { DomainEvent } from '../../platform/domain/decider';
import { sha256Hex } from '../../platform/ids/ids';

/**
 * A merchant's idempotencyKey, claimed for one create-checkout request: the key's own stream maps it
 * to the order's random public id (the order id is a buyer credential, so it is never derived from the
 * key) and to the request's fingerprint (the same key with another request is 409).
 */
export type CheckoutIdempotencyKeyClaimed = DomainEvent<
  'checkout.idempotency_key.claimed',
  { merchantCompanyId: string; idempotencyKey: string; orderId: string; requestHash: string; claimedAt: string }
>;

export const IDEMPOTENCY_KEY_STREAM_PREFIX = 'checkout_idempotency_key-';
/** One stream per (company, key); the stream id is a hash, so it names neither the key nor the order. */
export const idempotencyKeyStreamId = (companyId: string, idempotencyKey: string) => `${IDEMPOTENCY_KEY_STREAM_PREFIX}${sha256Hex(JSON.stringify([companyId, idempotencyKey]))}`;
