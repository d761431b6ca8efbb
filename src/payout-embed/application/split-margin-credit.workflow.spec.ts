import { givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { CreditSplitMarginMessage } from './credit-split-margin.handler';
import { splitMarginCreditWorkflow as workflow } from './split-margin-credit.workflow';

const released = (creditedToBalanceCents: string, feeRecoveredCents = '0') =>
  recorded(
    'split.margin.settled',
    {
      splitId: 'spl_1',
      smeCompanyId: 'co_sme',
      currency: 'USD',
      marginAmountCents: (BigInt(creditedToBalanceCents) + BigInt(feeRecoveredCents)).toString(),
      feeRecoveredCents,
      creditedToBalanceCents,
      via: 'settle_call',
      releasedAt: '2026-03-01T12:00:00.000Z',
    },
    'split-spl_1',
    'evt-1',
  );

describe('Split margin credit workflow', () => {
  it('credits what reached the SME balance, net of the fees recovered, to its balance stream', () =>
    givenWorkflow(workflow, null)
      .when(released('4400', '600'))
      .then({
        commands: [
          new CreditSplitMarginMessage('co_sme', 'spl_1', 'USD', '4400', { actor: 'system:split-margin-credit', correlationId: expect.any(String), causationId: 'evt-1' }),
        ],
      }));

  it('sends nothing when the covered fees took the whole margin', () => givenWorkflow(workflow, null).when(released('0', '1000')).thenNothing());
});
