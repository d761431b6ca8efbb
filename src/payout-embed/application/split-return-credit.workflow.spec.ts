import { givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { CreditSplitReturnMessage } from './credit-split-return.handler';
import { splitReturnCreditWorkflow as workflow } from './split-return-credit.workflow';

const context = { actor: 'system:split-return-credit', correlationId: expect.any(String), causationId: 'evt-1' };

describe('Split return credit workflow (issue 26)', () => {
  it('credits a reversal with the fee share platform_fees gave back, under its reversal id', () =>
    givenWorkflow(workflow, null)
      .when(
        recorded(
          'split.roster_entry.reversed',
          {
            splitId: 'spl_1',
            rosterEntryId: 'dst_1',
            reversalId: 'rev_1',
            amountCents: '2500',
            feeRefundedCents: '38',
            reason: 'Hours billed twice',
            idempotencyKey: 'k1',
            requestHash: 'h',
            reversedBy: 'usr_1',
            reversedAt: '2026-03-01T12:00:00.000Z',
          },
          'split-spl_1',
          'evt-1',
        ),
      )
      .then({ commands: [new CreditSplitReturnMessage({ splitId: 'spl_1', rosterEntryId: 'dst_1', returnId: 'rev_1', kind: 'reversal', amountCents: '2538' }, context)] }));

  it('credits a taken-back row its amount, once per row', () =>
    givenWorkflow(workflow, null)
      .when(
        recorded(
          'split.roster_entry.taken_back',
          { splitId: 'spl_1', rosterEntryId: 'dst_2', amountCents: '6000', takenBackBy: 'usr_1', takenBackAt: '2026-03-01T12:00:00.000Z' },
          'split-spl_1',
          'evt-1',
        ),
      )
      .then({
        commands: [new CreditSplitReturnMessage({ splitId: 'spl_1', rosterEntryId: 'dst_2', returnId: 'take_back:dst_2', kind: 'take_back', amountCents: '6000' }, context)],
      }));
});
