import { DomainError } from '../../platform/domain/domain-error';

export class WithdrawalInsufficientBalanceError extends DomainError {
  readonly code = 'WITHDRAWAL_INSUFFICIENT_BALANCE';
  readonly kind = 'unprocessable';
  constructor(currency: string, availableCents: string, amountCents: string) {
    super(`The ${currency} balance available to withdraw is ${availableCents}, less than ${amountCents}`, [
      { field: 'amountCents', message: `at most ${availableCents}`, availableCents },
    ]);
  }
}

export class WithdrawalWalletNotReadyError extends DomainError {
  readonly code = 'WITHDRAWAL_WALLET_NOT_READY';
  readonly kind = 'unprocessable';
  constructor() {
    super('A withdrawal needs an active, verified wallet on file');
  }
}
