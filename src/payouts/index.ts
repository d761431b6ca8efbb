// Public API of the payouts module: how other modules ask for a payout, and the payout events they follow.
export { PayoutsModule } from './payouts.module';
export { RequestPayoutMessage } from './application/request-payout.handler';
export {
  PAYOUT_EVENT_TYPES,
  PAYOUT_STREAM_PREFIX,
  payoutStreamId,
  STATUS_AFTER,
  type PayoutCompleted,
  type PayoutEvent,
  type PayoutFailed,
  type PayoutKind,
  type PayoutRef,
  type PayoutRequest,
  type PayoutRequested,
  type WithdrawalAllocation,
  type PayoutStatus,
} from './domain/payout.events';
