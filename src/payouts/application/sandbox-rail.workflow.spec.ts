import { givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { CompletePayoutMessage } from './complete-payout.handler';
import { FailPayoutMessage } from './fail-payout.handler';
import { sandboxRailWorkflow } from './sandbox-rail.workflow';
import { StartPayoutProcessingMessage } from './start-payout-processing.handler';

const requested = (kind: string, destination: string | null, attempt = 1) =>
  recorded(
    'payout.requested',
    { payoutId: 'po_1', kind, splitId: 'spl_1', distributionId: 'dst_1', amountCents: '100', currency: 'USD', destination, attempt, requestedAt: 't' },
    'payout-po_1',
  );
const context = { actor: 'system:sandbox-rail', correlationId: 'corr-1', causationId: 'evt-payout.requested' };

describe('sandbox rail workflow', () => {
  it('processes and completes a payout', () => {
    givenWorkflow(sandboxRailWorkflow, undefined)
      .when(requested('leg_b_transfer', 'ann@example.com'))
      .then({ commands: [new StartPayoutProcessingMessage('po_1', context), new CompletePayoutMessage('po_1', context)] });
  });

  it('fails the first attempt to a +fail-once destination and completes the second', () => {
    givenWorkflow(sandboxRailWorkflow, undefined)
      .when(requested('leg_b_transfer', 'ann+fail-once@example.com'))
      .then({
        commands: [new StartPayoutProcessingMessage('po_1', context), new FailPayoutMessage('po_1', 'Sandbox rail: first transfer attempt refused (+fail-once)', context)],
      });
    givenWorkflow(sandboxRailWorkflow, undefined)
      .when(requested('leg_b_transfer', 'ann+fail-once@example.com', 2))
      .then({ commands: [new StartPayoutProcessingMessage('po_1', context), new CompletePayoutMessage('po_1', context)] });
  });

  it("settles a merchant's payout to its company, and fails one whose destination asks for it (issue 26: the sandbox card whose payouts fail)", () => {
    givenWorkflow(sandboxRailWorkflow, undefined)
      .when(requested('merchant', 'co_m'))
      .then({ commands: [new StartPayoutProcessingMessage('po_1', context), new CompletePayoutMessage('po_1', context)] });
    givenWorkflow(sandboxRailWorkflow, undefined)
      .when(requested('merchant', 'co_m+fail-always'))
      .then({
        commands: [new StartPayoutProcessingMessage('po_1', context), new FailPayoutMessage('po_1', 'Sandbox rail: destination refuses every transfer (+fail-always)', context)],
      });
  });
});
