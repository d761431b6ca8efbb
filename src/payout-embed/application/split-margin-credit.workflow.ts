import { NO_REACTION, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { SPLIT_STREAM_PREFIX, SplitEvent } from '../../split';
import { CreditSplitMarginMessage } from './credit-split-margin.handler';

type MarginSettled = Extract<SplitEvent, { type: 'split.margin.settled' }>;

/**
 * Split money the SME may spend: when a Split's margin is released, the part that reached its
 * company balance (after the covered fees were recovered) is credited to the balance stream, where
 * Payout Embed reservations are decided. The roster sum never is: it is owed to the contractors.
 * Stateless: the balance decider credits each Split once, so a replayed event changes nothing.
 */
export const splitMarginCreditWorkflow: Workflow<null> = {
  name: 'split_margin_credit',
  streams: [SPLIT_STREAM_PREFIX],
  timers: [],
  handles: (event) => event.type === 'split.margin.settled',
  load: async () => null,
  react(input) {
    if (input.kind !== 'event') return NO_REACTION;
    const { splitId, smeCompanyId, currency, creditedToBalanceCents } = input.event.data as MarginSettled['data'];
    if (BigInt(creditedToBalanceCents) <= 0n) return NO_REACTION;
    return { commands: [new CreditSplitMarginMessage(smeCompanyId, splitId, currency, creditedToBalanceCents, workflowContext('system:split-margin-credit', input))], timers: [] };
  },
};
