import { formatMinor } from './activity';

describe('formatMinor', () => {
  it.each([
    ['25000', 'USD', '250.00 USD'],
    ['5', 'EUR', '0.05 EUR'],
    ['1500', 'JPY', '1500 JPY'],
    ['1234', 'KWD', '1.234 KWD'],
  ])('%s %s -> %s', (amount, currency, expected) => expect(formatMinor(amount, currency)).toBe(expected));
});
