import { decimalToMinor, formatAmount, minorToDecimal } from './format-amount';

describe('formatAmount (shared by the buyer pages and the dashboard)', () => {
  it('places the decimal point by the currency: 0, 2 and 3 decimals', () => {
    expect(formatAmount('4250', 'JPY')).toBe('¥4,250');
    expect(formatAmount('4250', 'USD')).toBe('$42.50');
    expect(formatAmount('1234', 'KWD')).toBe('KWD\u00a01.234');
    expect(formatAmount('5', 'EUR')).toBe('€0.05');
    expect(formatAmount('-5', 'USD')).toBe('-$0.05');
  });

  it('is exact beyond the float range', () => {
    expect(minorToDecimal('900719925474099312', 'USD')).toBe('9007199254740993.12');
    expect(formatAmount('900719925474099312', 'USD')).toBe('$9,007,199,254,740,993.12');
  });

  it('formats in the viewer locale when asked', () => {
    expect(formatAmount('4250', 'EUR', 'de-DE')).toBe('42,50\u00a0€');
  });

  it('keeps one formatter per locale and currency: the same amount in another locale, and a code Intl refuses, each time', () => {
    expect(formatAmount('4250', 'EUR', 'de-DE')).toBe('42,50\u00a0€');
    expect(formatAmount('4250', 'EUR')).toBe('€42.50');
    expect(formatAmount('4250', 'EUR', 'de-DE')).toBe('42,50\u00a0€');
    expect(formatAmount('4250', 'US')).toBe('US 42.50');
    expect(formatAmount('4250', 'US')).toBe('US 42.50');
  });

  it('reads what a person typed back into minor units, refusing more decimals than the currency has', () => {
    expect(decimalToMinor('42.5', 'USD')).toBe('4250');
    expect(decimalToMinor('1,000', 'JPY')).toBe('1000');
    expect(decimalToMinor('0.05', 'USD')).toBe('5');
    expect(decimalToMinor('1.2345', 'KWD')).toBeNull();
    expect(decimalToMinor('1.5', 'JPY')).toBeNull();
    expect(decimalToMinor('abc', 'USD')).toBeNull();
  });
});
