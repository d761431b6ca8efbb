import { NO_REACTION, Reaction, Workflow, workflowContext, WorkflowInput } from '../../platform/workflows/workflow';
import { PAYOUT_STREAM_PREFIX, PayoutRequested } from '../domain/payout.events';
import { sandboxRailOutcome } from '../domain/sandbox-rail';
import { CompletePayoutCommand } from './complete-payout.handler';
import { FailPayoutCommand } from './fail-payout.handler';
import { StartPayoutProcessingCommand } from './start-payout-processing.handler';

const ACTOR = 'system:sandbox-rail';

/**
 * Executes requested payouts on the sandbox rail: processing, then completed or failed. A merchant
 * payout credits the merchant company's balance on the platform, so the rail always settles it.
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
    const outcome = request.kind === 'merchant' ? ({ ok: true } as const) : sandboxRailOutcome(request.destination, request.attempt);
    return {
      commands: [
        new StartPayoutProcessingCommand(request.payoutId, context),
        outcome.ok ? new CompletePayoutCommand(request.payoutId, context) : new FailPayoutCommand(request.payoutId, outcome.reason, context),
      ],
      timers: [],
    };
  },
};
