import { createHmac } from 'node:crypto';
import { DELIVERY_ID_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER, verifyWebhook } from '../index';
import { signingKey } from './webhook-signature';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const NOW = 1_700_000_000;
const BODY = '{"createdAt":"2024-01-01T00:00:00.000Z","data":{"amount":"1000"},"id":"evt_1","type":"checkout.completed"}';

function signedHeaders(overrides: { secret?: string; timestamp?: number; body?: string } = {}): Record<string, string> {
  const timestamp = overrides.timestamp ?? NOW;
  return {
    [EVENT_HEADER]: 'checkout.completed',
    [TIMESTAMP_HEADER]: String(timestamp),
    [DELIVERY_ID_HEADER]: 'dlv_1',
    [SIGNATURE_HEADER]: signWebhook(overrides.secret ?? SECRET, timestamp, overrides.body ?? BODY),
  };
}

describe('webhook signature', () => {
  it('uses the documented header names', () => {
    expect([EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, DELIVERY_ID_HEADER]).toEqual([
      'X-Paysplit-Event',
      'X-Paysplit-Signature',
      'X-Paysplit-Timestamp',
      'X-Paysplit-Delivery-Id',
    ]);
  });

  it('matches an independently computed HMAC-SHA256 (known answer)', () => {
    const expected = createHmac('sha256', Buffer.from(SECRET, 'utf8'))
      .update(Buffer.from(`${NOW}.${BODY}`, 'utf8'))
      .digest('hex');
    expect(signWebhook(SECRET, NOW, BODY)).toBe(expected);
    expect(signWebhook(SECRET, NOW, BODY)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches a pinned vector (computed with `openssl dgst -sha256 -hmac whsec_test`)', () => {
    expect(signWebhook('whsec_test', 1_700_000_000, '{"a":1}')).toBe('38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
  });

  it('signs the same with the key object the delivery worker keeps (signingKey) as with the secret string, non-ASCII secret included', () => {
    expect(signWebhook(signingKey('whsec_test'), 1_700_000_000, '{"a":1}')).toBe('38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
    for (const secret of [SECRET, 'whsec_é€😀']) expect(signWebhook(signingKey(secret), NOW, BODY)).toBe(signWebhook(secret, NOW, BODY));
  });

  it('round-trips sign and verify', () => {
    expect(verifyWebhook(SECRET, signedHeaders(), BODY, 300, NOW)).toEqual({ ok: true, eventType: 'checkout.completed', deliveryId: 'dlv_1', timestamp: NOW });
  });

  it('verifies a Buffer body, including bytes that are not valid UTF-8', () => {
    expect(verifyWebhook(SECRET, signedHeaders(), Buffer.from(BODY), 300, NOW).ok).toBe(true);
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const signature = createHmac('sha256', SECRET).update(`${NOW}.`).update(raw).digest('hex');
    expect(verifyWebhook(SECRET, { ...signedHeaders(), [SIGNATURE_HEADER]: signature }, raw, 300, NOW).ok).toBe(true);
  });

  it('uses the current clock when no time is given', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(SECRET, signedHeaders({ timestamp: now }), BODY, 60).ok).toBe(true);
    expect(verifyWebhook(SECRET, signedHeaders({ timestamp: now - 3600 }), BODY, 60)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
  });

  it('refuses a tampered body', () => {
    expect(verifyWebhook(SECRET, signedHeaders(), BODY.replace('1000', '9000'), 300, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook(SECRET, signedHeaders(), `${BODY} `, 300, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a signature made with another secret (e.g. before rotation)', () => {
    expect(verifyWebhook(SECRET, signedHeaders({ secret: 'whsec_old' }), BODY, 300, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a timestamp that was altered after signing', () => {
    const headers = { ...signedHeaders(), [TIMESTAMP_HEADER]: String(NOW + 1) };
    expect(verifyWebhook(SECRET, headers, BODY, 300, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each([
    ['at the past edge', NOW - 300, true],
    ['at the future edge', NOW + 300, true],
    ['too old', NOW - 301, false],
    ['too far in the future', NOW + 301, false],
  ])('checks the tolerance: %s', (_name, timestamp, ok) => {
    const result = verifyWebhook(SECRET, signedHeaders({ timestamp }), BODY, 300, NOW);
    expect(result).toEqual(ok ? expect.objectContaining({ ok: true }) : { ok: false, reason: 'timestamp_out_of_tolerance' });
  });

  it('fails closed on a NaN tolerance', () => {
    expect(verifyWebhook(SECRET, signedHeaders(), BODY, NaN, NOW)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
  });

  it.each([EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, DELIVERY_ID_HEADER])('reports a missing %s', (name) => {
    const headers: Record<string, string | undefined> = signedHeaders();
    delete headers[name];
    expect(verifyWebhook(SECRET, headers, BODY, 300, NOW)).toEqual({ ok: false, reason: 'missing_header' });
    expect(verifyWebhook(SECRET, { ...signedHeaders(), [name]: '' }, BODY, 300, NOW)).toEqual({ ok: false, reason: 'missing_header' });
    expect(verifyWebhook(SECRET, { ...signedHeaders(), [name]: undefined }, BODY, 300, NOW)).toEqual({ ok: false, reason: 'missing_header' });
    expect(verifyWebhook(SECRET, { ...signedHeaders(), [name]: [] }, BODY, 300, NOW)).toEqual({ ok: false, reason: 'missing_header' });
  });

  it.each([(name: string) => name.toLowerCase(), (name: string) => name.toUpperCase()])('looks headers up case-insensitively (%#)', (rename) => {
    const headers = Object.fromEntries(Object.entries(signedHeaders()).map(([name, value]) => [rename(name), value]));
    expect(verifyWebhook(SECRET, headers, BODY, 300, NOW).ok).toBe(true);
  });

  it('accepts array header values and uses the first one', () => {
    const headers = Object.fromEntries(Object.entries(signedHeaders()).map(([name, value]) => [name.toLowerCase(), [value, 'ignored']]));
    expect(verifyWebhook(SECRET, headers, BODY, 300, NOW)).toEqual({ ok: true, eventType: 'checkout.completed', deliveryId: 'dlv_1', timestamp: NOW });
  });

  it('accepts an upper-case hex signature', () => {
    const headers = signedHeaders();
    headers[SIGNATURE_HEADER] = headers[SIGNATURE_HEADER].toUpperCase();
    expect(verifyWebhook(SECRET, headers, BODY, 300, NOW).ok).toBe(true);
  });

  it.each(['abc', '-1', '1.5', '1e9', '0x10', 'NaN', '99999999999999999999', ' '])('reports a bad timestamp %j', (timestamp) => {
    const result = verifyWebhook(SECRET, { ...signedHeaders(), [TIMESTAMP_HEADER]: timestamp }, BODY, 300, NOW);
    expect(result).toEqual({ ok: false, reason: timestamp.trim() === '' ? 'missing_header' : 'bad_timestamp' });
  });

  it.each(['', 'zz', 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), `sha256=${'a'.repeat(64)}`])('reports a malformed signature %j without throwing', (signature) => {
    const result = verifyWebhook(SECRET, { ...signedHeaders(), [SIGNATURE_HEADER]: signature }, BODY, 300, NOW);
    expect(result).toEqual({ ok: false, reason: signature === '' ? 'missing_header' : 'bad_signature' });
  });

  it('never throws on odd input', () => {
    expect(() => verifyWebhook(SECRET, {}, '', 300, NOW)).not.toThrow();
    expect(() => verifyWebhook(SECRET, null as never, '', 300, NOW)).not.toThrow();
    expect(() => verifyWebhook(SECRET, { [SIGNATURE_HEADER]: 5 as never }, BODY, 300, NOW)).not.toThrow();
  });
});
