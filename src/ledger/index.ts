// Public API of the ledger module: its Nest module and the invariant check the CLI runs.
export { LedgerModule } from './ledger.module';
export { replayLedger, verifyLedger } from './application/ledger-verifier';
export { contractorCredits, withdrawableByAccount, type ContractorCreditDoc } from './application/contractor-earnings.query';
export { contractorReversals, owedByCurrency, type ContractorReversalDoc } from './application/contractor-earnings.query';
