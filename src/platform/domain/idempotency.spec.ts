import { requestFingerprint } from './idempotency';

describe('requestFingerprint', () => {
  it('ignores key order and undefined fields, at every depth', () => {
    const a = requestFingerprint({ total: '10', roster: [{ amount: '1', flag: false, note: undefined }], extra: undefined });
    const b = requestFingerprint({ roster: [{ flag: false, amount: '1' }], total: '10' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart any change of value, of array order, of null against absent, or of type', () => {
    const base = requestFingerprint({ total: '10', rows: ['a', 'b'], ref: null });
    for (const other of [
      { total: '11', rows: ['a', 'b'], ref: null },
      { total: '10', rows: ['b', 'a'], ref: null },
      { total: '10', rows: ['a', 'b'] },
      { total: 10, rows: ['a', 'b'], ref: null },
    ]) {
      expect(requestFingerprint(other)).not.toBe(base);
    }
  });

  it('keeps the fingerprints already stored: the hashed bytes are pinned', () => {
    // Values computed by the implementation that wrote the stored fingerprints (before canonicalJson was shared).
    const NullObject = function () {} as unknown as { new (): Record<string, unknown>; prototype: object };
    NullObject.prototype = Object.create(null) as object;
    const params = Object.assign(new NullObject(), { splitId: 'spl_1' });
    const body = {
      total: '10',
      roster: [{ amount: '1', flag: false, note: undefined }, null],
      big: JSON.parse('1e400') as number,
      '\uFFFD': 'x',
      '\u{1F600}': 'é',
      '10': 1,
      '9': 2,
    };
    expect(requestFingerprint({ route: 'POST /v1/splits/:splitId/approve', params, body, user: null })).toBe('79a7ba677926d3802936b0f30dc0ba4447a7928c6acefdc83e60b4e228e4b069');
    expect(requestFingerprint({ roster: [{ flag: false, amount: '1' }], total: '10' })).toBe('3ebf14ef3397a77479fefa6167a511ed553b3611c10cdbbce9c7387b57afd8b6');
  });
});
