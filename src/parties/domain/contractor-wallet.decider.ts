import { assertNever, Decider } from '../../platform/domain/decider';
import { CommandMetadata } from '../../platform/domain/command';
import { ContractorWalletEvent } from './contractor-wallet.events';
import { WalletCodeExpiredError, WalletCodeLimitError } from './contractor-wallet.errors';

/** A code is valid this long after it was sent; one a minute; five wrong ones lock for 15 minutes. */
export const WALLET_CODE_TTL_SECONDS = 600;
export const WALLET_CODE_RESEND_SECONDS = 60;
export const MAX_WRONG_WALLET_CODES = 5;
export const WALLET_LOCK_SECONDS = 900;

export type ContractorWalletCommand =
  | { type: 'SendCode'; data: { userId: string; walletEmail: string; codeHash: string }; metadata: CommandMetadata }
  /** `codeHash`: the hash of the code typed, keyed to the pending wallet email (so a code for one email never verifies another). */
  | { type: 'Verify'; data: { codeHash: string }; metadata: CommandMetadata };

export interface ContractorWalletState {
  userId: string | null;
  /** The verified wallet on file. */
  wallet: { email: string; verifiedAt: string } | null;
  pending: { email: string; codeHash: string; codeExpiresAt: string } | null;
  lastCodeSentAt: string | null;
  failedAttempts: number;
  lockedUntil: string | null;
}

const plusSeconds = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

function sendCode(state: ContractorWalletState, data: { userId: string; walletEmail: string; codeHash: string }, now: string): ContractorWalletEvent[] {
  if (state.lockedUntil !== null && now < state.lockedUntil) throw new WalletCodeLimitError(`Too many wrong codes; try again after ${state.lockedUntil}`, state.lockedUntil);
  if (state.lastCodeSentAt !== null && now < plusSeconds(state.lastCodeSentAt, WALLET_CODE_RESEND_SECONDS)) {
    const retryAt = plusSeconds(state.lastCodeSentAt, WALLET_CODE_RESEND_SECONDS);
    throw new WalletCodeLimitError(`A code was just sent; ask again after ${retryAt}`, retryAt);
  }
  const { userId, walletEmail, codeHash } = data;
  return [{ type: 'contractor_wallet.code_sent', data: { userId, walletEmail, codeHash, sentAt: now, codeExpiresAt: plusSeconds(now, WALLET_CODE_TTL_SECONDS) } }];
}

function verify(state: ContractorWalletState, codeHash: string, now: string): ContractorWalletEvent[] {
  if (state.lockedUntil !== null && now < state.lockedUntil) throw new WalletCodeLimitError(`Too many wrong codes; try again after ${state.lockedUntil}`, state.lockedUntil);
  const pending = state.pending;
  if (!pending || now >= pending.codeExpiresAt || state.userId === null) throw new WalletCodeExpiredError();
  if (codeHash !== pending.codeHash) {
    const failedAttempts = state.failedAttempts + 1;
    const lockedUntil = failedAttempts >= MAX_WRONG_WALLET_CODES ? plusSeconds(now, WALLET_LOCK_SECONDS) : null;
    return [{ type: 'contractor_wallet.code_rejected', data: { userId: state.userId, failedAttempts, lockedUntil, rejectedAt: now } }];
  }
  return [{ type: 'contractor_wallet.verified', data: { userId: state.userId, walletEmail: pending.email, previousWalletEmail: state.wallet?.email ?? null, verifiedAt: now } }];
}

/**
 * A contractor's own wallet (docs/earnings.md#the-contractors-own-wallet): it names an email, a 6-digit code
 * goes there, and the right code within 10 minutes makes it the wallet on file. Asking for a code for
 * another email leaves the wallet on file as it is until that one is verified. A wrong code is recorded
 * (five in a row lock verification for 15 minutes and burn the code); the handler answers it as an error.
 */
export const contractorWalletDecider: Decider<ContractorWalletCommand, ContractorWalletEvent, ContractorWalletState> = {
  initialState: () => ({ userId: null, wallet: null, pending: null, lastCodeSentAt: null, failedAttempts: 0, lockedUntil: null }),
  decide(command, state) {
    switch (command.type) {
      case 'SendCode':
        return sendCode(state, command.data, command.metadata.now);
      case 'Verify':
        return verify(state, command.data.codeHash, command.metadata.now);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'contractor_wallet.code_sent': {
        const { userId, walletEmail, codeHash, codeExpiresAt, sentAt } = event.data;
        return { ...state, userId, pending: { email: walletEmail, codeHash, codeExpiresAt }, lastCodeSentAt: sentAt, failedAttempts: 0 };
      }
      case 'contractor_wallet.code_rejected':
        // A lock burns the pending code and starts a fresh count.
        return event.data.lockedUntil
          ? { ...state, pending: null, failedAttempts: 0, lockedUntil: event.data.lockedUntil }
          : { ...state, failedAttempts: event.data.failedAttempts };
      case 'contractor_wallet.verified':
        return { ...state, wallet: { email: event.data.walletEmail, verifiedAt: event.data.verifiedAt }, pending: null, failedAttempts: 0, lockedUntil: null };
      default:
        return assertNever(event);
    }
  },
};
