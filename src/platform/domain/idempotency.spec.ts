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
});
