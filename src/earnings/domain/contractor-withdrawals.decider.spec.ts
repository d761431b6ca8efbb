import { given } from '../../../test/support/given-when-then';
import { ContractorWithdrawalsCommand, contractorWithdrawalsDecider } from './contractor-withdrawals.decider';
import { ContractorWithdrawalEvent, WithdrawalRequested } from './contractor-withdrawals.events';

const now = '2026-03-01T12:00:00.000Z';
const wallet = { email: 'casey@wallet.example', active: true, verified: true };
const request = (
  payoutId: string,
  amountCents: string,
  earned: Record<string, string>,
  overrides: Partial<Extract<ContractorWithdrawalsCommand, { type: 'RequestWithdrawal' }>['data']> = {},
) => ({ type: 'RequestWithdrawal', data: { userId: 'usr_1', payoutId, currency: 'USD', amountCents, wallet, earned, ...overrides }, metadata: { now, actor: 'system' } }) as const;
const requested = (payoutId: string, amountCents: string, allocations: { contractor: string; amountCents: string }[], currency = 'USD'): WithdrawalRequested => ({
  type: 'contractor.withdrawal.requested',
  data: { userId: 'usr_1', payoutId, currency, amountCents, walletEmail: wallet.email, allocations, requestedAt: now },
});
const failed = (payoutId: string): ContractorWithdrawalEvent => ({ type: 'contractor.withdrawal.failed', data: { userId: 'usr_1', payoutId, reason: 'refused', failedAt: now } });
const paid = (payoutId: string): ContractorWithdrawalEvent => ({ type: 'contractor.withdrawal.paid', data: { userId: 'usr_1', payoutId, paidAt: now } });

describe('contractor withdrawals decider', () => {
  it('takes a withdrawal from the accounts in name order, each up to what it has', () =>
    given(contractorWithdrawalsDecider)
      .when(request('po_1', '700', { sv_b: '500', cpp_a: '300' }))
      .then([
        requested('po_1', '700', [
          { contractor: 'cpp_a', amountCents: '300' },
          { contractor: 'sv_b', amountCents: '400' },
        ]),
      ]));

  it('counts earlier withdrawals (requested or paid) against the balance, in their currency only', () =>
    given(
      contractorWithdrawalsDecider,
      requested('po_1', '300', [{ contractor: 'cpp_a', amountCents: '300' }]),
      paid('po_1'),
      requested('po_2', '100', [{ contractor: 'sv_b', amountCents: '100' }]),
      requested('po_e', '999', [{ contractor: 'cpp_a', amountCents: '999' }], 'EUR'),
    )
      .when(request('po_3', '400', { cpp_a: '300', sv_b: '500' }))
      .then([requested('po_3', '400', [{ contractor: 'sv_b', amountCents: '400' }])]));

  it('refuses more than is left, saying how much is', () =>
    given(contractorWithdrawalsDecider, requested('po_1', '300', [{ contractor: 'cpp_a', amountCents: '300' }]))
      .when(request('po_2', '201', { cpp_a: '500' }))
      .thenFails('WITHDRAWAL_INSUFFICIENT_BALANCE', (error) => {
        expect(error.kind).toBe('unprocessable');
        expect(error.details).toEqual([{ field: 'amountCents', message: 'at most 200', availableCents: '200' }]);
      }));

  it('gives a failed withdrawal back: its amount can be withdrawn again', () =>
    given(contractorWithdrawalsDecider, requested('po_1', '500', [{ contractor: 'cpp_a', amountCents: '500' }]), failed('po_1'))
      .when(request('po_2', '500', { cpp_a: '500' }))
      .then([requested('po_2', '500', [{ contractor: 'cpp_a', amountCents: '500' }])]));

  it.each([
    ['no wallet', null],
    ['an inactive wallet', { ...wallet, active: false }],
    ['an unverified wallet', { ...wallet, verified: false }],
  ])('refuses with %s', (_label, noWallet) =>
    given(contractorWithdrawalsDecider)
      .when(request('po_1', '1', { cpp_a: '5' }, { wallet: noWallet }))
      .thenFails('WITHDRAWAL_WALLET_NOT_READY'),
  );

  it('decides nothing for a repeated withdrawal id, or for a settle of an unknown or settled one', () => {
    const first = requested('po_1', '100', [{ contractor: 'cpp_a', amountCents: '100' }]);
    given(contractorWithdrawalsDecider, first)
      .when(request('po_1', '100', { cpp_a: '100' }))
      .thenNothing();
    given(contractorWithdrawalsDecider, first, paid('po_1'))
      .when({ type: 'SettleWithdrawal', data: { payoutId: 'po_1', outcome: { paid: false, reason: 'x' } }, metadata: { now, actor: 'system' } })
      .thenNothing();
    given(contractorWithdrawalsDecider)
      .when({ type: 'SettleWithdrawal', data: { payoutId: 'po_9', outcome: { paid: true } }, metadata: { now, actor: 'system' } })
      .thenNothing();
  });

  it('settles a requested withdrawal once, paid or failed', () => {
    const first = requested('po_1', '100', [{ contractor: 'cpp_a', amountCents: '100' }]);
    given(contractorWithdrawalsDecider, first)
      .when({ type: 'SettleWithdrawal', data: { payoutId: 'po_1', outcome: { paid: true } }, metadata: { now, actor: 'system' } })
      .then([paid('po_1')]);
    given(contractorWithdrawalsDecider, first)
      .when({ type: 'SettleWithdrawal', data: { payoutId: 'po_1', outcome: { paid: false, reason: 'refused' } }, metadata: { now, actor: 'system' } })
      .then([failed('po_1')]);
  });
  describe('issue 29: which wallet a withdrawal may go to', () => {
    it('an SME-supplied wallet email (not verified by the person) is used: the SME rows already pay to it', () =>
      given(contractorWithdrawalsDecider)
        .when(request('po_1', '100', { sv_b: '500' }, { wallet: { email: 'casey@sme-said.example', active: true, verified: false, source: 'sme', suppliedBy: 'Acme' } }))
        .then((events) => expect(events).toMatchObject([{ type: 'contractor.withdrawal.requested', data: { walletEmail: 'casey@sme-said.example', amountCents: '100' } }])));

    it('the wallet the person verified itself is used', () =>
      given(contractorWithdrawalsDecider)
        .when(request('po_1', '100', { sv_b: '500' }, { wallet: { email: 'casey@own.example', active: true, verified: true, source: 'own' } }))
        .then((events) => expect(events).toMatchObject([{ data: { walletEmail: 'casey@own.example' } }])));

    it('an unverified creator-profile wallet, or none, is still refused', () => {
      given(contractorWithdrawalsDecider)
        .when(request('po_1', '100', { cpp_a: '500' }, { wallet: { email: 'casey@wallet.example', active: true, verified: false } }))
        .thenFails('WITHDRAWAL_WALLET_NOT_READY');
      given(contractorWithdrawalsDecider)
        .when(request('po_1', '100', { cpp_a: '500' }, { wallet: null }))
        .thenFails('WITHDRAWAL_WALLET_NOT_READY');
    });
  });
});
