import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { minorToDecimal } from '../money/format-amount';

/**
 * CSV exports (docs/api.md#csv-exports): RFC 4180 (CRLF line ends, a header row, a field quoted when it
 * holds a comma, a quote, CR or LF, quotes doubled), streamed row by row.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** A plain number (an amount, a count) is data, never a formula, whatever its sign. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet may run as a formula: a cell starting with one of these (and a tab or CR, which some strip first). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field: formula injection neutralised (a cell starting with `=`, `+`, `-`, `@`, tab or CR gets a
 * leading `'`, unless it is a plain number such as `-150`), then quoted if it needs it.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRecord = (values: CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;

/** A CSV column: its header and how a row gives its value(s). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

/** Columns for an amount: `<name>` (decimal string) and `<name>Cents` (minor units). */
export function amountCsvColumns<T>(name: string, minorUnits: (row: T) => string | null | undefined, currency: (row: T) => string): CsvColumn<T>[] {
  return [
    { header: name, value: (row) => (minorUnits(row) == null ? '' : minorToDecimal(minorUnits(row)!, currency(row))) },
    { header: `${name}Cents`, value: (row) => minorUnits(row) ?? '' },
  ];
}

/** The CSV text of the rows, chunk by chunk (the CLI's ledger:export writes it to a file). */
export async function* csvText<T>(columns: CsvColumn<T>[], rows: AsyncIterable<T> | Iterable<T>): AsyncGenerator<string> {
  yield csvRecord(columns.map((c) => c.header));
  let chunk = '';
  for await (const row of rows) {
    chunk += csvRecord(columns.map((c) => c.value(row)));
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** Streams the rows as a CSV attachment: the rows are read as the client takes them, never all held. */
export function sendCsv<T>(reply: FastifyReply, filename: string, columns: CsvColumn<T>[], rows: AsyncIterable<T> | Iterable<T>): void {
  void reply
    .status(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .send(Readable.from(csvText(columns, rows)));
}
