/** Money is bigint minor units inside and a string of decimal digits on the wire and in events. */
export type Cents = bigint;

const DIGITS = /^(0|[1-9]\d*)$/;
/** Upper bound for any single amount: 10^15 minor units (10 trillion dollars); larger is surely a mistake. */
export const MAX_AMOUNT_CENTS = 10n ** 15n;

export function isCentsString(value: unknown): value is string {
  return typeof value === 'string' && DIGITS.test(value) && value.length <= 16 && BigInt(value) <= MAX_AMOUNT_CENTS;
}

export function parseCents(value: string): Cents {
  if (!isCentsString(value)) throw new Error(`Not an amount in minor units: ${JSON.stringify(value)}`);
  return BigInt(value);
}

export const formatCents = (cents: Cents): string => cents.toString();

export function sumCents(values: Cents[]): Cents {
  return values.reduce((total, value) => total + value, 0n);
}

/** amount * bps / 10_000, rounded half up to the minor unit (amounts are never negative). */
export function basisPoints(amount: Cents, bps: number): Cents {
  if (amount < 0n) throw new Error('basisPoints expects a non-negative amount');
  const scaled = amount * BigInt(bps);
  return (scaled + 5_000n) / 10_000n;
}
