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
const FORMULA_FIRST = new Set(['=', '+', '-', '@', '\t', '\r'].map((c) => c.charCodeAt(0)));
/** What makes a field quoted (RFC 4180). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field: formula injection neutralised (a cell starting with `=`, `+`, `-`, `@`, tab or CR gets a
 * leading `'`, unless it is a plain number such as `-150`), then quoted if it needs it.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  // The first character decides first (a regex per field was most of an export's formatting time).
  if (text.length > 0 && FORMULA_FIRST.has(text.charCodeAt(0)) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A record: the fields of `values`, comma-separated, CRLF-terminated. */
export const csvRecord = (values: CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;

/** The record of one row (the same text as csvRecord of its columns' values, without the array). */
export function csvRow<T>(columns: CsvColumn<T>[], row: T): string {
  if (columns.length === 0) return '\r\n';
  let line = csvField(columns[0]!.value(row));
  for (let i = 1; i < columns.length; i++) line += `,${csvField(columns[i]!.value(row))}`;
  return `${line}\r\n`;
}

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
    chunk += csvRow(columns, row);
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * A batched export's chunks end once they reach this many characters. Kept well under V8's large-object
 * size (~128 KiB): a batch of 1,000 lines made one ~290 KB string, which V8 flattened into freshly mapped
 * memory and Buffer.from copied into more, page faults over every byte (0.25 s of CPU per million lines).
 */
const BATCH_CHUNK_CHARS = 32 * 1024;

/**
 * The CSV text of rows that come a batch at a time (a page of a list), formatted in one synchronous loop
 * per batch. The same text as csvText over the same rows; an export of millions of rows pays a few awaits
 * per batch instead of a few per row.
 */
export async function* csvTextOfBatches<T>(columns: CsvColumn<T>[], batches: AsyncIterable<T[]>): AsyncGenerator<string> {
  yield csvRecord(columns.map((c) => c.header));
  for await (const batch of batches) {
    let chunk = '';
    for (const row of batch) {
      chunk += csvRow(columns, row);
      if (chunk.length < BATCH_CHUNK_CHARS) continue;
      yield chunk;
      chunk = '';
    }
    if (chunk) yield chunk;
  }
}

/** Streams the rows as a CSV attachment: the rows are read as the client takes them, never all held. */
export function sendCsv<T>(reply: FastifyReply, filename: string, columns: CsvColumn<T>[], rows: AsyncIterable<T> | Iterable<T>): void {
  sendCsvText(reply, filename, csvText(columns, rows));
}

/** Streams rows read a batch at a time (csvTextOfBatches) as a CSV attachment. */
export function sendCsvBatches<T>(reply: FastifyReply, filename: string, columns: CsvColumn<T>[], batches: AsyncIterable<T[]>): void {
  sendCsvText(reply, filename, utf8(csvTextOfBatches(columns, batches)));
}

/**
 * Each chunk encoded once: a string chunk written to a chunked response is measured (Buffer.byteLength)
 * and then encoded, two passes over every byte of an export.
 */
async function* utf8(text: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const chunk of text) yield Buffer.from(chunk, 'utf8');
}

function sendCsvText(reply: FastifyReply, filename: string, text: AsyncIterable<string | Buffer>): void {
  void reply
    .status(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .send(Readable.from(text));
}
