import { amountCsvColumns, CsvColumn } from '../../platform/http/csv';
import { LedgerLineDoc } from '../projections/ledger-lines';
import { BalanceTransactionView, StatementView } from './books.query';

/** The CSV columns of balance transactions (HTTP export and `ledger:export`): every amount as a decimal string and as minor units. */
export const BALANCE_TRANSACTION_CSV: CsvColumn<BalanceTransactionView>[] = balanceTransactionColumns((r) => r.description);

/** The same columns read straight from the stored lines (an export formats them without a view object per line). */
export const LEDGER_LINE_CSV: CsvColumn<LedgerLineDoc>[] = balanceTransactionColumns((r) => r.memo);

function balanceTransactionColumns<T extends Omit<BalanceTransactionView, 'description'>>(description: (row: T) => string): CsvColumn<T>[] {
  return [
    { header: 'id', value: (r) => r.id },
    { header: 'postedAt', value: (r) => r.postedAt },
    { header: 'account', value: (r) => r.account },
    { header: 'accountType', value: (r) => r.accountType },
    { header: 'type', value: (r) => r.type },
    { header: 'source', value: (r) => r.source },
    { header: 'currency', value: (r) => r.currency },
    ...amountCsvColumns<T>(
      'amount',
      (r) => r.amountCents,
      (r) => r.currency,
    ),
    ...amountCsvColumns<T>(
      'balanceAfter',
      (r) => r.balanceAfterCents,
      (r) => r.currency,
    ),
    { header: 'postingId', value: (r) => r.postingId },
    { header: 'eventId', value: (r) => r.eventId },
    { header: 'description', value: description },
  ];
}

/** A statement as CSV rows: an `opening` row, one `line` row per line, a `closing` row (per account and currency). */
export interface StatementCsvRow {
  row: 'opening' | 'line' | 'closing';
  statement: StatementView;
  line?: BalanceTransactionView;
}

export const STATEMENT_CSV: CsvColumn<StatementCsvRow>[] = [
  { header: 'account', value: (r) => r.statement.account },
  { header: 'currency', value: (r) => r.statement.currency },
  { header: 'row', value: (r) => r.row },
  { header: 'id', value: (r) => r.line?.id },
  { header: 'postedAt', value: (r) => (r.line ? r.line.postedAt : r.row === 'opening' ? r.statement.from : r.statement.to) },
  { header: 'type', value: (r) => r.line?.type },
  { header: 'source', value: (r) => r.line?.source },
  ...amountCsvColumns<StatementCsvRow>(
    'amount',
    (r) => r.line?.amountCents,
    (r) => r.statement.currency,
  ),
  ...amountCsvColumns<StatementCsvRow>(
    'balance',
    (r) => (r.line ? r.line.balanceAfterCents : r.row === 'opening' ? r.statement.openingBalanceCents : r.statement.closingBalanceCents),
    (r) => r.statement.currency,
  ),
  { header: 'postingId', value: (r) => r.line?.postingId },
  { header: 'eventId', value: (r) => r.line?.eventId },
  { header: 'description', value: (r) => r.line?.description },
];

export function* statementCsvRows(statements: StatementView[]): Generator<StatementCsvRow> {
  for (const statement of statements) {
    yield { row: 'opening', statement };
    for (const line of statement.lines) yield { row: 'line', statement, line };
    yield { row: 'closing', statement };
  }
}
