import { NO_REACTION, Workflow, workflowContext } from '../../platform/workflows/workflow';
import { SPLIT_STREAM_PREFIX } from '../../split';
import { SplitFeesReleaseReason } from '../domain/payout-embed.events';
import { ReleaseSplitFeesMessage } from './release-split-fees.handler';

const REASONS: Readonly<Record<string, SplitFeesReleaseReason>> = {
  'split.leg_a.rejected': 'rejected',
  'split.cancelled': 'cancelled',
  'split.settled': 'settled',
};

/**
 * What an SME set aside for the fees it covers on a Split goes back to its available balance when the
 * Split ends: all of it when rejected or cancelled, what the fees did not use when settled
 * (docs/money.md#fees-the-sme-covers). Stateless: the balance decider releases each Split once.
 */
export const splitFeesReleaseWorkflow: Workflow<null> = {
  name: 'split_fees_release',
  streams: [SPLIT_STREAM_PREFIX],
  timers: [],
  handles: (event) => event.type in REASONS,
  load: async () => null,
  react(input) {
    if (input.kind !== 'event') return NO_REACTION;
    const { splitId } = input.event.data as { splitId: string };
    return { commands: [new ReleaseSplitFeesMessage(splitId, REASONS[input.event.type]!, workflowContext('system:split-fees-release', input))], timers: [] };
  },
};
