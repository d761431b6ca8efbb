import { givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { RequestPayoutMessage } from '../../payouts';
import { contractorWithdrawalsWorkflow } from './contractor-withdrawals.workflow';
import { SettleWithdrawalMessage } from './settle-withdrawal.handler';

const allocations = [{ contractor: 'cpp_1', amountCents: '600' }];
const ref = { payoutId: 'po_1', kind: 'contractor_withdrawal', userId: 'usr_1', currency: 'USD', allocations };

describe('contractor withdrawals workflow', () => {
  it('asks for a payout to the wallet when a withdrawal is requested', () => {
    const event = recorded(
      'contractor.withdrawal.requested',
      { userId: 'usr_1', payoutId: 'po_1', currency: 'USD', amountCents: '600', walletEmail: 'w@wallet.example', allocations, requestedAt: 't' },
      'contractor-withdrawals-usr_1',
    );
    const context = { actor: 'system:earnings', correlationId: 'corr-1', causationId: 'evt-contractor.withdrawal.requested' };
    givenWorkflow(contractorWithdrawalsWorkflow, undefined)
      .when(event)
      .then({ commands: [new RequestPayoutMessage({ ...ref, kind: 'contractor_withdrawal', amountCents: '600', destination: 'w@wallet.example', attempt: 1 }, context)] });
  });

  it("settles the withdrawal with the rail's answer", () => {
    givenWorkflow(contractorWithdrawalsWorkflow, undefined)
      .when(recorded('payout.completed', { ...ref, at: 't' }, 'payout-po_1'))
      .then({
        commands: [new SettleWithdrawalMessage('usr_1', 'po_1', { paid: true }, { actor: 'system:earnings', correlationId: 'corr-1', causationId: 'evt-payout.completed' })],
      });
    givenWorkflow(contractorWithdrawalsWorkflow, undefined)
      .when(recorded('payout.failed', { ...ref, reason: 'refused', at: 't' }, 'payout-po_1'))
      .then({
        commands: [
          new SettleWithdrawalMessage('usr_1', 'po_1', { paid: false, reason: 'refused' }, { actor: 'system:earnings', correlationId: 'corr-1', causationId: 'evt-payout.failed' }),
        ],
      });
  });

  it('ignores the payouts of Splits and merchants', () => {
    const leg = recorded('payout.completed', { payoutId: 'po_2', kind: 'leg_b_transfer', splitId: 'spl_1', distributionId: 'dst_1', at: 't' }, 'payout-po_2');
    expect(contractorWithdrawalsWorkflow.handles(leg)).toBe(false);
  });
});
