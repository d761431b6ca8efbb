import { basisPoints, isCentsString, parseCents, sumCents } from './money';

describe('money', () => {
  it.each(['0', '1', '100', '1000000000000000'])('accepts %s', (v) => expect(isCentsString(v)).toBe(true));
  it.each(['', '-1', '1.5', '01', '1e3', ' 1', '1000000000000001', '99999999999999999999'])('refuses %j', (v) => expect(isCentsString(v)).toBe(false));
  it('refuses non-strings', () => [1, null, undefined, {}].forEach((v) => expect(isCentsString(v)).toBe(false)));
  it('parses and sums exactly', () => expect(sumCents([parseCents('999999999999999'), 1n])).toBe(1000000000000000n));
  it.each([
    [10000n, 150, 150n],
    [1n, 150, 0n], // 0.015 -> 0
    [33n, 150, 0n], // 0.495 -> 0
    [34n, 150, 1n], // 0.51 -> 1
    [100n, 50, 1n], // 0.5 -> 1 (half up)
    [300n, 50, 2n], // 1.5 -> 2
    [12345n, 100, 123n], // 123.45 -> 123
    [12350n, 100, 124n], // 123.5 -> 124
  ])('fee of %s at %s bps is %s', (amount, bps, fee) => expect(basisPoints(amount, bps)).toBe(fee));
});
