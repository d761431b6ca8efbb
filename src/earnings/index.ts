// Public API of the earnings module: its Nest module and the events of a person's withdrawals stream.
export { EarningsModule } from './earnings.module';
export { CONTRACTOR_WITHDRAWALS_STREAM_PREFIX, type ContractorWithdrawalEvent } from './domain/contractor-withdrawals.events';
