/**
 * Amounts for people: minor units (a string of digits, maybe signed) to `$42.50`, `¥4,250`, `KWD 1.234`.
 * Exact: the decimal is built as a string and Intl.NumberFormat formats the string (no float ever holds
 * the amount). Pure and dependency-free: the buyer pages (server) and the dashboard (browser) share it.
 */

/** Known currencies' decimals: building an Intl.NumberFormat costs far more than formatting (a CSV export formats millions of amounts). */
const digitsByCurrency = new Map<string, number>();

/** The currency's number of decimals (JPY 0, USD 2, KWD 3); 2 for a code Intl does not know. */
export function fractionDigits(currency: string): number {
  const known = digitsByCurrency.get(currency);
  if (known !== undefined) return known;
  const digits = intlFractionDigits(currency);
  if (digitsByCurrency.size < 1000) digitsByCurrency.set(currency, digits);
  return digits;
}

function intlFractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2; // a code Intl does not know (RangeError): the usual two decimals
  }
}

/** `"4250"` USD -> `"42.50"`, JPY -> `"4250"`, KWD -> `"4.250"`; `"-5"` USD -> `"-0.05"`. */
export function minorToDecimal(amountMinorUnits: string, currency: string): string {
  const digits = fractionDigits(currency);
  const negative = amountMinorUnits.startsWith('-');
  const raw = negative ? amountMinorUnits.slice(1) : amountMinorUnits;
  const padded = raw.padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${digits === 0 ? padded : `${padded.slice(0, -digits)}.${padded.slice(-digits)}`}`;
}

/** `"1.5"` USD -> `"150"`; null when the text is not an amount with at most the currency's decimals. */
export function decimalToMinor(text: string, currency: string): string | null {
  const digits = fractionDigits(currency);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim().replace(/,/g, ''));
  if (!match || (match[2] ?? '').length > digits) return null;
  const minor = `${match[1]}${(match[2] ?? '').padEnd(digits, '0')}`.replace(/^0+(?=\d)/, '');
  return minor;
}

/** Formats minor units for the currency in `locale` (en-US for the server pages, the viewer's in the browser). */
export function formatAmount(amountMinorUnits: string, currency: string, locale = 'en-US'): string {
  const decimal = minorToDecimal(amountMinorUnits, currency);
  const formatter = formatterFor(locale, currency);
  return formatter ? formatter.format(decimal) : `${currency} ${decimal}`;
}

/** Intl.NumberFormat formats a decimal string exactly (ES2023); the bundled lib types only number | bigint. */
interface DecimalFormatter {
  format(value: string): string;
}

/**
 * One formatter per locale and currency: building one cost 20x the formatting (7% of the activity
 * feed's rebuild, which formats the amount of every Split, order and session it lists).
 */
const formatters = new Map<string, DecimalFormatter | null>();

function formatterFor(locale: string, currency: string): DecimalFormatter | null {
  const key = `${locale}\u0000${currency}`;
  const known = formatters.get(key);
  if (known !== undefined) return known;
  let formatter: DecimalFormatter | null;
  try {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency }) as unknown as DecimalFormatter;
  } catch {
    formatter = null; // a locale or currency code Intl does not know (RangeError): `USD 42.50`
  }
  if (formatters.size < 1000) formatters.set(key, formatter);
  return formatter;
}
