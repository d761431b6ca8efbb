import { PAYOUT_STREAM_PREFIX, PayoutEvent, RequestPayoutMessage } from '../../payouts';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { NO_REACTION, Reaction, Workflow, workflowContext, WorkflowInput } from '../../platform/workflows/workflow';
import { CONTRACTOR_WITHDRAWALS_STREAM_PREFIX, WithdrawalRequested } from '../domain/contractor-withdrawals.events';
import { SettleWithdrawalMessage } from './settle-withdrawal.handler';

const ACTOR = 'system:earnings';

const isWithdrawalPayout = (event: RecordedEvent) =>
  (event.type === 'payout.completed' || event.type === 'payout.failed') && (event.data as { kind?: string }).kind === 'contractor_withdrawal';

/**
 * A requested withdrawal becomes a payout to the wallet (its id is the payout's, so a reprocessed event
 * asks for nothing new); the payout's end settles the withdrawal on the person's stream.
 */
export const contractorWithdrawalsWorkflow: Workflow<void> = {
  name: 'contractor_withdrawals',
  streams: [CONTRACTOR_WITHDRAWALS_STREAM_PREFIX, PAYOUT_STREAM_PREFIX],
  timers: [],
  handles: (event) => event.type === 'contractor.withdrawal.requested' || isWithdrawalPayout(event),
  load: async () => undefined,
  react(input: WorkflowInput): Reaction {
    if (input.kind !== 'event') return NO_REACTION;
    const context = workflowContext(ACTOR, input);
    if (input.event.type === 'contractor.withdrawal.requested') {
      const { payoutId, userId, currency, amountCents, allocations, walletEmail } = (input.event as unknown as WithdrawalRequested).data;
      return {
        commands: [
          new RequestPayoutMessage({ payoutId, kind: 'contractor_withdrawal', userId, currency, allocations, amountCents, destination: walletEmail, attempt: 1 }, context),
        ],
        timers: [],
      };
    }
    const payout = (input.event as unknown as PayoutEvent).data;
    if (payout.kind !== 'contractor_withdrawal') return NO_REACTION;
    const outcome = input.event.type === 'payout.completed' ? ({ paid: true } as const) : { paid: false as const, reason: (input.event.data as { reason: string }).reason };
    return { commands: [new SettleWithdrawalMessage(payout.userId, payout.payoutId, outcome, context)], timers: [] };
  },
};
