import { isoString } from './clock';

describe('isoString', () => {
  it('gives toISOString of each date, also for dates a millisecond apart, repeated and going back', () => {
    const base = Date.parse('2026-11-27T04:30:00.000Z');
    for (const ms of [base, base, base + 1, base + 1, base, base + 999, base + 1_000, base - 86_400_000, 0, -1]) {
      expect(isoString(new Date(ms))).toBe(new Date(ms).toISOString());
    }
  });

  it('throws on an invalid date, as toISOString does', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
