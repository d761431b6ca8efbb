import { given } from '../../../test/support/given-when-then';
import { contractorWalletDecider as decider } from './contractor-wallet.decider';
import { ContractorWalletEvent } from './contractor-wallet.events';

const T0 = '2026-11-26T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const meta = (seconds: number) => ({ now: at(seconds), actor: 'user:usr_1' });
const sendCode = (seconds: number, walletEmail = 'wendy@wallet.example', codeHash = 'hash-a') =>
  ({ type: 'SendCode', data: { userId: 'usr_1', walletEmail, codeHash }, metadata: meta(seconds) }) as const;
const verify = (seconds: number, codeHash = 'hash-a') => ({ type: 'Verify', data: { codeHash }, metadata: meta(seconds) }) as const;

const codeSent = (seconds = 0, walletEmail = 'wendy@wallet.example', codeHash = 'hash-a'): ContractorWalletEvent => ({
  type: 'contractor_wallet.code_sent',
  data: { userId: 'usr_1', walletEmail, codeHash, sentAt: at(seconds), codeExpiresAt: at(seconds + 600) },
});
const rejected = (failedAttempts: number, lockedUntil: string | null = null): ContractorWalletEvent => ({
  type: 'contractor_wallet.code_rejected',
  data: { userId: 'usr_1', failedAttempts, lockedUntil, rejectedAt: at(10) },
});
const verified = (walletEmail = 'wendy@wallet.example', previousWalletEmail: string | null = null, seconds = 20): ContractorWalletEvent => ({
  type: 'contractor_wallet.verified',
  data: { userId: 'usr_1', walletEmail, previousWalletEmail, verifiedAt: at(seconds) },
});

describe('contractor wallet decider (issue 29: the contractor adds, verifies and changes its own wallet)', () => {
  it('sends a code for the wallet email, valid 10 minutes', () => {
    given(decider)
      .when(sendCode(0))
      .then([codeSent(0)]);
  });

  it('sends at most one code a minute', () => {
    given(decider, codeSent(0))
      .when(sendCode(59))
      .thenFails('WALLET_CODE_LIMIT', (error) => expect(error.details[0]).toMatchObject({ retryAt: at(60) }));
    given(decider, codeSent(0))
      .when(sendCode(60, 'other@wallet.example', 'hash-b'))
      .then([codeSent(60, 'other@wallet.example', 'hash-b')]);
  });

  it('the right code in time makes the email the wallet on file', () => {
    given(decider, codeSent(0)).when(verify(20)).then([verified()]);
  });

  it('a wrong code is recorded and counted; the fifth in a row locks for 15 minutes and burns the code', () => {
    given(decider, codeSent(0))
      .when(verify(10, 'wrong'))
      .then([rejected(1)]);
    given(decider, codeSent(0), rejected(1), rejected(2), rejected(3), rejected(4))
      .when(verify(10, 'wrong'))
      .then([rejected(5, at(910))]);
    given(decider, codeSent(0), rejected(5, at(910)))
      .when(verify(20))
      .thenFails('WALLET_CODE_LIMIT');
    given(decider, codeSent(0), rejected(5, at(910)))
      .when(sendCode(100))
      .thenFails('WALLET_CODE_LIMIT');
    given(decider, codeSent(0), rejected(5, at(910)))
      .when(verify(911))
      .thenFails('WALLET_CODE_EXPIRED');
  });

  it('a code older than 10 minutes, or none, does not verify', () => {
    given(decider, codeSent(0)).when(verify(600)).thenFails('WALLET_CODE_EXPIRED');
    given(decider).when(verify(0)).thenFails('WALLET_CODE_EXPIRED');
    given(decider, codeSent(0), verified()).when(verify(30)).thenFails('WALLET_CODE_EXPIRED');
  });

  it('changing the wallet: the old one stays on file until the new one is verified, and the change names the old one', () => {
    const history = [codeSent(0), verified(), codeSent(100, 'new@wallet.example', 'hash-b')];
    expect(history.reduce(decider.evolve, decider.initialState()).wallet).toEqual({ email: 'wendy@wallet.example', verifiedAt: at(20) });
    given(decider, ...history)
      .when(verify(120, 'hash-b'))
      .then([verified('new@wallet.example', 'wendy@wallet.example', 120)]);
  });
});
