import { NO_REACTION, Reaction, Workflow, workflowContext, WorkflowInput } from '../../platform/workflows/workflow';
import { PAYOUT_STREAM_PREFIX, PayoutRequested } from '../domain/payout.events';
import { sandboxRailOutcome } from '../domain/sandbox-rail';
import { CompletePayoutMessage } from './complete-payout.handler';
import { FailPayoutMessage } from './fail-payout.handler';
import { StartPayoutProcessingMessage } from './start-payout-processing.handler';

const ACTOR = 'system:sandbox-rail';

/**
 * Executes requested payouts on the sandbox rail: processing, then completed or failed, by the same rule
 * for every kind (sandboxRailOutcome). A merchant payout's destination is its company id, which settles,
 * unless its order was paid with the sandbox card whose payouts fail (checkout's sandbox-merchant-payouts).
 */
export const sandboxRailWorkflow: Workflow<void> = {
  name: 'payout_rail',
  streams: [PAYOUT_STREAM_PREFIX],
  timers: [],
  handles: (event) => event.type === 'payout.requested',
  // Each payout's request on its own: different payouts' commands touch different streams.
  partitionOf: (event) => event.streamId,
  load: async () => undefined,
  react(input: WorkflowInput): Reaction {
    if (input.kind !== 'event') return NO_REACTION;
    const request = (input.event as unknown as PayoutRequested).data;
    const context = workflowContext(ACTOR, input);
    const outcome = sandboxRailOutcome(request.destination, request.attempt);
    return {
      commands: [
        new StartPayoutProcessingMessage(request.payoutId, context),
        outcome.ok ? new CompletePayoutMessage(request.payoutId, context) : new FailPayoutMessage(request.payoutId, outcome.reason, context),
      ],
      timers: [],
    };
  },
};
