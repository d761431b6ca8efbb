import { NO_REACTION, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { SPLIT_STREAM_PREFIX, SplitEvent } from '../../split';
import { CreditSplitReturnMessage } from './credit-split-return.handler';

type Reversed = Extract<SplitEvent, { type: 'split.roster_entry.reversed' }>;
type TakenBack = Extract<SplitEvent, { type: 'split.roster_entry.taken_back' }>;

/** The returnId a take-back is credited under: a row is taken back at most once. */
export const takeBackReturnId = (rosterEntryId: string) => `take_back:${rosterEntryId}`;

/**
 * Split money that comes back to the SME is its own to spend (issue 26, docs/money.md#what-a-company-can-spend):
 * a row reversal (the amount, with the fee share platform_fees gives back) and a row taken back after it failed
 * for good (the row's amount, no longer owed to a contractor) are credited to the balance stream, where Payout
 * Embed reservations are decided, exactly as the ledger credits company_balance from the same events.
 * Stateless: the balance decider credits each returnId once, so a replayed event changes nothing.
 */
export const splitReturnCreditWorkflow: Workflow<null> = {
  name: 'split_return_credit',
  streams: [SPLIT_STREAM_PREFIX],
  timers: [],
  handles: (event) => event.type === 'split.roster_entry.reversed' || event.type === 'split.roster_entry.taken_back',
  load: async () => null,
  react(input) {
    if (input.kind !== 'event') return NO_REACTION;
    const context = workflowContext('system:split-return-credit', input);
    if (input.event.type === 'split.roster_entry.reversed') {
      const d = input.event.data as Reversed['data'];
      const amountCents = (BigInt(d.amountCents) + BigInt(d.feeRefundedCents)).toString();
      return {
        commands: [new CreditSplitReturnMessage({ splitId: d.splitId, rosterEntryId: d.rosterEntryId, returnId: d.reversalId, kind: 'reversal', amountCents }, context)],
        timers: [],
      };
    }
    const d = input.event.data as TakenBack['data'];
    const splitReturn = { splitId: d.splitId, rosterEntryId: d.rosterEntryId, returnId: takeBackReturnId(d.rosterEntryId), kind: 'take_back' as const, amountCents: d.amountCents };
    return { commands: [new CreditSplitReturnMessage(splitReturn, context)], timers: [] };
  },
};
