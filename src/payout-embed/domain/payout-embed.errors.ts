import { DomainError } from '../../platform/domain/domain-error';

/** No session with this id for this caller (another company's session or a wrong embed token: 404, never 403). */
export class PayoutEmbedSessionNotFoundError extends DomainError {
  readonly code = 'PAYOUT_EMBED_SESSION_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Payout Embed session not found');
  }
}

/** The company's available balance in the currency does not cover the amount; nothing was reserved. */
export class PayoutInsufficientBalanceError extends DomainError {
  readonly code = 'PAYOUT_INSUFFICIENT_BALANCE';
  readonly kind = 'unprocessable';
  constructor(currency: string, availableCents: string, amountCents: string) {
    super(`The available ${currency} balance (${availableCents}) does not cover ${amountCents}`, [
      { field: 'amountCents', message: 'exceeds the available balance', availableCents, currency },
    ]);
  }
}

/**
 * The SME's own money cannot cover the early-payout fees it elected to cover on a Split (issue 23): the
 * margin pays first, the rest must be set aside from the available balance before the election is
 * recorded. Nothing was appended (no Split created or revised, no payout started, nothing set aside).
 */
export class SmeFeeNotCoveredError extends DomainError {
  readonly code = 'SME_FEE_NOT_COVERED';
  readonly kind = 'unprocessable';
  constructor(currency: string, availableCents: string, requiredCents: string, splitId: string) {
    super(`The fees the SME covers need ${requiredCents} more ${currency} set aside from its balance; ${availableCents} is available`, [
      { field: 'businessCoversFee', message: 'the SME balance does not cover the fees it covers', currency, availableCents, requiredCents, splitId },
    ]);
  }
}

/** Issue 30: the person who started a session that needs a second person cannot be the one who confirms it. */
export class SelfApprovalError extends DomainError {
  readonly code = 'SELF_APPROVAL';
  readonly kind = 'forbidden';
  constructor() {
    super('You started this; another finance or owner member must confirm it');
  }
}

/** Issue 30: the session waits for a second member's confirmation; nothing can be claimed before it. */
export class PayoutEmbedAwaitingConfirmationError extends DomainError {
  readonly code = 'PAYOUT_EMBED_AWAITING_CONFIRMATION';
  readonly kind = 'conflict';
  constructor() {
    super('This payout waits for a second member of the company to confirm it');
  }
}

/** Issue 30: only a session that waits for confirmation (created, not yet confirmed) can be confirmed. */
export class PayoutEmbedNotConfirmableError extends DomainError {
  readonly code = 'PAYOUT_EMBED_NOT_CONFIRMABLE';
  readonly kind = 'conflict';
  constructor(status: string) {
    super(`A ${status} session cannot be confirmed`);
  }
}

/** The same idempotencyKey came with a different body (one error for every idempotent create). */
export { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';

/** Codes can be sent and checked only while the session waits for its recipient (created, not past expiresAt). */
export class PayoutEmbedNotClaimableError extends DomainError {
  readonly code = 'PAYOUT_EMBED_NOT_CLAIMABLE';
  readonly kind = 'conflict';
  constructor(status: string) {
    super(`The session is ${status}; it can no longer be claimed`, [{ message: 'not claimable', status }]);
  }
}

/** Five wrong codes in a row lock claims for 15 minutes. */
export class PayoutEmbedClaimLockedError extends DomainError {
  readonly code = 'PAYOUT_EMBED_CLAIM_LOCKED';
  readonly kind = 'conflict';
  constructor(lockedUntil: string) {
    super(`Too many wrong codes; try again after ${lockedUntil}`, [{ message: 'locked', lockedUntil }]);
  }
}

export class PayoutEmbedCodeInvalidError extends DomainError {
  readonly code = 'PAYOUT_EMBED_CODE_INVALID';
  readonly kind = 'unprocessable';
  constructor(attemptsLeft: number) {
    super(`That code is not right; ${attemptsLeft} ${attemptsLeft === 1 ? 'try' : 'tries'} left`, [{ field: 'code', message: 'wrong code', attemptsLeft }]);
  }
}

/** No code was sent, or the last one is older than 10 minutes. */
export class PayoutEmbedCodeExpiredError extends DomainError {
  readonly code = 'PAYOUT_EMBED_CODE_EXPIRED';
  readonly kind = 'unprocessable';
  constructor() {
    super('No valid code: ask for a new one', [{ field: 'code', message: 'expired or never sent' }]);
  }
}

/** Codes are sent at most once a minute and at most MAX_CODES_PER_SESSION times per session. */
export class PayoutEmbedCodeLimitError extends DomainError {
  readonly code = 'PAYOUT_EMBED_CODE_LIMIT';
  readonly kind = 'conflict';
  constructor(message: string, retryAt: string | null) {
    super(message, [{ message: 'code limit', retryAt }]);
  }
}

/** A wallet can be named once, after the claim and before the payout starts. */
export class PayoutEmbedNotAwaitingWalletError extends DomainError {
  readonly code = 'PAYOUT_EMBED_NOT_AWAITING_WALLET';
  readonly kind = 'conflict';
  constructor(status: string) {
    super(`The session is ${status}; a wallet can be named only once it is claimed and before its payout starts`, [{ message: 'not awaiting a wallet', status }]);
  }
}

/** Cancel only while created or claimed and before the payout starts. */
export class PayoutEmbedNotCancellableError extends DomainError {
  readonly code = 'PAYOUT_EMBED_NOT_CANCELLABLE';
  readonly kind = 'conflict';
  constructor(status: string) {
    super(`The session is ${status}${status === 'claimed' ? ' and its payout has started' : ''}; it can no longer be cancelled`, [{ message: 'not cancellable', status }]);
  }
}

/** A payout outcome for a session whose payout has not started. */
export class PayoutEmbedPayoutNotStartedError extends DomainError {
  readonly code = 'PAYOUT_EMBED_PAYOUT_NOT_STARTED';
  readonly kind = 'conflict';
  constructor() {
    super('The session has no payout in progress');
  }
}

/** A create with this idempotencyKey died before its session was written and its reservation was released; use a new key. */
export class PayoutEmbedReservationAbandonedError extends DomainError {
  readonly code = 'PAYOUT_EMBED_RESERVATION_ABANDONED';
  readonly kind = 'conflict';
  constructor() {
    super('An earlier create with this idempotencyKey was abandoned and its reservation released; retry with a new idempotencyKey', [
      { field: 'idempotencyKey', message: 'abandoned' },
    ]);
  }
}

/**
 * A payout was asked of a reservation that is not held (released, or never made): paying it would send
 * money without a debit, so it is refused (issue 23). Never expected on data written since the abandon
 * marker; logged at error level where it is met.
 */
export class PayoutEmbedReservationNotHeldError extends DomainError {
  readonly code = 'PAYOUT_EMBED_RESERVATION_NOT_HELD';
  readonly kind = 'conflict';
  constructor(sessionId: string, status: 'released' | 'paid' | 'unknown') {
    super(`The reservation of Payout Embed session ${sessionId} is ${status === 'unknown' ? 'not held' : status}; its payout is not sent`, [
      { field: 'sessionId', message: status },
    ]);
  }
}
