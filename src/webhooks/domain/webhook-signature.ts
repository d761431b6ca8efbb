import { createHmac, createSecretKey, KeyObject, timingSafeEqual } from 'node:crypto';

export const EVENT_HEADER = 'X-Paysplit-Event';
export const SIGNATURE_HEADER = 'X-Paysplit-Signature';
export const TIMESTAMP_HEADER = 'X-Paysplit-Timestamp';
export const DELIVERY_ID_HEADER = 'X-Paysplit-Delivery-Id';

/** hex(HMAC-SHA256(secret, `${timestamp}.${body}`)), timestamp in unix seconds. */
/**
 * The headers of one attempt, as sent and as the delivery log shows them. `timestamp` and `signature`
 * are null only for attempts recorded before they were kept.
 */
export function webhookRequestHeaders(eventType: string, deliveryId: string, timestamp: string | null, signature: string | null): Record<string, string | null> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Paysplit-Webhooks/1.0',
    [EVENT_HEADER]: eventType,
    [TIMESTAMP_HEADER]: timestamp,
    [DELIVERY_ID_HEADER]: deliveryId,
    [SIGNATURE_HEADER]: signature,
  };
}

/**
 * `secret` as a string, or as the key object signingKey made of it once (the same signature, without
 * converting and preparing the key on every call: a sender signing many deliveries keeps one).
 */
export function signWebhook(secret: string | KeyObject, timestamp: number, body: string): string {
  return hmacHex(secret, String(timestamp), body);
}

/** The HMAC key of a signing secret (its UTF-8 bytes, as a string key is used). */
export function signingKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

function hmacHex(secret: string | KeyObject, timestamp: string, body: string | Buffer): string {
  // A Buffer body is hashed as received: decoding it first would alter bytes that are not valid UTF-8.
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export type WebhookVerification =
  | { ok: true; eventType: string; deliveryId: string; timestamp: number }
  | { ok: false; reason: 'missing_header' | 'bad_timestamp' | 'timestamp_out_of_tolerance' | 'bad_signature' };

const TIMESTAMP = /^\d{1,15}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * For receivers: checks a delivery against the company's signing secret. Pass the raw request body
 * exactly as received (not re-serialised JSON). Never throws on malformed input.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Buffer,
  toleranceSeconds: number,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): WebhookVerification {
  const eventType = header(headers, EVENT_HEADER);
  const signature = header(headers, SIGNATURE_HEADER);
  const timestampText = header(headers, TIMESTAMP_HEADER);
  const deliveryId = header(headers, DELIVERY_ID_HEADER);
  if (!eventType || !signature || !timestampText || !deliveryId) return { ok: false, reason: 'missing_header' };

  if (!TIMESTAMP.test(timestampText)) return { ok: false, reason: 'bad_timestamp' };
  const timestamp = Number(timestampText);
  // Written as a negated <= so that a NaN tolerance or clock fails closed.
  if (!(Math.abs(nowSeconds - timestamp) <= toleranceSeconds)) return { ok: false, reason: 'timestamp_out_of_tolerance' };

  if (!HEX_SHA256.test(signature)) return { ok: false, reason: 'bad_signature' };
  const expected = Buffer.from(hmacHex(secret, timestampText, rawBody), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (!timingSafeEqual(expected, given)) return { ok: false, reason: 'bad_signature' };

  return { ok: true, eventType, deliveryId, timestamp };
}

/** Case-insensitive lookup; of a repeated header the first value counts. */
function header(headers: WebhookHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() !== wanted) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim() !== '') return first.trim();
  }
  return undefined;
}
