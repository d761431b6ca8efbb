// Public API of the ledger module: its Nest module and the invariant check the CLI runs.
export { LedgerModule } from './ledger.module';
export { replayLedger, verifyLedger } from './application/ledger-verifier';
export { contractorCredits, withdrawableByAccount, type ContractorCreditDoc } from './application/contractor-earnings.query';
export { balanceTransactionBatches, balanceTransactions, statements } from './application/books.query';
export { BALANCE_TRANSACTION_CSV, LEDGER_LINE_CSV, STATEMENT_CSV, statementCsvRows } from './application/books.csv';
export { BalanceTransactionDto, BalanceTransactionsQueryDto, StatementDto, StatementsQueryDto } from './http/books.dto';
export { BalanceAsOfQueryDto } from './http/books.dto';
export { statementPeriod, transactionFilters } from './http/books.controller';
export { contractorReversals, owedByCurrency, type ContractorReversalDoc } from './application/contractor-earnings.query';
export { accountBalancesAsOf, type AccountBalanceAsOf } from './application/balances-as-of';
