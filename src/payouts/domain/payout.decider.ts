import { CommandMetadata } from '../../platform/domain/command';
import { assertNever, Decider } from '../../platform/domain/decider';
import { PayoutEvent, PayoutRef, payoutRefOf, PayoutRequest, PayoutStatus, STATUS_AFTER } from './payout.events';

export type PayoutCommand =
  | { type: 'RequestPayout'; data: PayoutRequest; metadata: CommandMetadata }
  | { type: 'StartProcessing'; data: object; metadata: CommandMetadata }
  | { type: 'CompletePayout'; data: object; metadata: CommandMetadata }
  | { type: 'FailPayout'; data: { reason: string }; metadata: CommandMetadata };

export type PayoutState = { status: 'NONE' } | { status: PayoutStatus; ref: PayoutRef };

/** PENDING -> PROCESSING -> COMPLETED | FAILED. Repeating a step (or a late one) changes nothing. */
export const payoutDecider: Decider<PayoutCommand, PayoutEvent, PayoutState> = {
  initialState: () => ({ status: 'NONE' }),
  decide(command, state) {
    switch (command.type) {
      case 'RequestPayout': {
        if (state.status !== 'NONE') return [];
        return [{ type: 'payout.requested', data: { ...command.data, requestedAt: command.metadata.now } }];
      }
      case 'StartProcessing':
        return state.status === 'PENDING' ? [{ type: 'payout.processing', data: { ...state.ref, at: command.metadata.now } }] : [];
      case 'CompletePayout':
        return state.status === 'PROCESSING' ? [{ type: 'payout.completed', data: { ...state.ref, at: command.metadata.now } }] : [];
      case 'FailPayout':
        return state.status === 'PENDING' || state.status === 'PROCESSING'
          ? [{ type: 'payout.failed', data: { ...state.ref, reason: command.data.reason, at: command.metadata.now } }]
          : [];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    return { status: STATUS_AFTER[event.type], ref: payoutRefOf(event.data) };
  },
};
