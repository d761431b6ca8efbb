import { DomainError } from '../../platform/domain/domain-error';

/** The code is wrong (the attempts left are in details). */
export class WalletCodeInvalidError extends DomainError {
  readonly code = 'WALLET_CODE_INVALID';
  readonly kind = 'unprocessable';
  constructor(attemptsLeft: number) {
    super(`That code is not right; ${attemptsLeft} ${attemptsLeft === 1 ? 'try' : 'tries'} left`, [{ field: 'code', message: 'wrong code', attemptsLeft }]);
  }
}

/** No code was sent, or the last one is older than 10 minutes (or was burnt by a lock). */
export class WalletCodeExpiredError extends DomainError {
  readonly code = 'WALLET_CODE_EXPIRED';
  readonly kind = 'unprocessable';
  constructor() {
    super('No valid code: ask for a new one', [{ field: 'code', message: 'expired or never sent' }]);
  }
}

/** One code a minute; five wrong codes in a row lock verification for 15 minutes. */
export class WalletCodeLimitError extends DomainError {
  readonly code = 'WALLET_CODE_LIMIT';
  readonly kind = 'conflict';
  constructor(message: string, retryAt: string) {
    super(message, [{ message: 'code limit', retryAt }]);
  }
}
