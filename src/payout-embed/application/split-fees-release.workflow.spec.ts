import { givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { ReleaseSplitFeesMessage } from './release-split-fees.handler';
import { splitFeesReleaseWorkflow as workflow } from './split-fees-release.workflow';

const context = { actor: 'system:split-fees-release', correlationId: 'corr-1', causationId: 'evt-1' };
const event = (type: string) => recorded(type, { splitId: 'spl_1' }, 'split-spl_1', 'evt-1');

describe('Split fees release workflow', () => {
  it.each([
    ['split.leg_a.rejected', 'rejected'],
    ['split.cancelled', 'cancelled'],
    ['split.settled', 'settled'],
  ] as const)('gives back what was set aside for the covered fees when %s', (type, reason) =>
    givenWorkflow(workflow, null)
      .when(event(type))
      .then({ commands: [new ReleaseSplitFeesMessage('spl_1', reason, context)] }),
  );

  it('follows only the events that end a Split', () => {
    expect(workflow.handles(event('split.settled'))).toBe(true);
    expect(workflow.handles(event('split.leg_a.approved'))).toBe(false);
    expect(workflow.handles(event('split.roster_entry.settled'))).toBe(false);
  });
});
