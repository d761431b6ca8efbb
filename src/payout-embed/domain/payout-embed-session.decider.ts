import { assertNever, Decider } from '../../platform/domain/decider';
import {
  IdempotencyKeyReusedError,
  PayoutEmbedAwaitingConfirmationError,
  PayoutEmbedClaimLockedError,
  PayoutEmbedCodeExpiredError,
  PayoutEmbedCodeLimitError,
  PayoutEmbedNotAwaitingWalletError,
  PayoutEmbedNotCancellableError,
  PayoutEmbedNotClaimableError,
  PayoutEmbedNotConfirmableError,
  PayoutEmbedPayoutNotStartedError,
  PayoutEmbedReservationAbandonedError,
  SelfApprovalError,
} from './payout-embed.errors';
import { SessionCreatedData, SessionEvent, SessionRef, SessionStatus } from './payout-embed.events';
import { CommandMetadata } from '../../platform/domain/command';

/** A code is valid this long after it was sent. */
export const CODE_TTL_SECONDS = 600;
/** Wrong codes in a row that lock claims, and for how long. */
export const MAX_WRONG_CODES = 5;
export const LOCK_SECONDS = 900;
/** Resend limits: one code a minute, at most this many per session. */
export const CODE_RESEND_SECONDS = 60;
export const MAX_CODES_PER_SESSION = 5;

export type PayoutEmbedCommand =
  | { type: 'CreateSession'; data: SessionCreatedData; metadata: CommandMetadata }
  | { type: 'Confirm'; data: { by: string }; metadata: CommandMetadata }
  | { type: 'SendCode'; data: { codeHash: string }; metadata: CommandMetadata }
  | { type: 'Claim'; data: { codeHash: string }; metadata: CommandMetadata }
  | { type: 'NameWallet'; data: { walletEmail: string }; metadata: CommandMetadata }
  | { type: 'CompletePayout'; data: object; metadata: CommandMetadata }
  | { type: 'FailPayout'; data: { failureReason: string }; metadata: CommandMetadata }
  | { type: 'Expire'; data: object; metadata: CommandMetadata }
  | { type: 'Cancel'; data: object; metadata: CommandMetadata }
  | { type: 'Abandon'; data: { sessionId: string; companyId: string }; metadata: CommandMetadata };

export interface SessionState {
  session: (SessionCreatedData & { status: SessionStatus }) | null;
  codeHash: string | null;
  codeExpiresAt: string | null;
  codesSent: number;
  lastCodeSentAt: string | null;
  failedAttempts: number;
  lockedUntil: string | null;
  walletEmail: string | null;
  payoutStarted: boolean;
  failureReason: string | null;
  updatedAt: string | null;
  /** The abandoned-reservation timer closed this session id before any session was written. */
  abandoned: boolean;
  /** Issue 30: who confirmed a session that needed a second person (null: not confirmed, or not needed). */
  confirmedBy: string | null;
}

/** A session above the two-person threshold that no second member has confirmed yet. */
export const awaitsConfirmation = (state: SessionState) => state.session?.confirmation !== undefined && state.confirmedBy === null;

const initialState = (): SessionState => ({
  session: null,
  codeHash: null,
  codeExpiresAt: null,
  codesSent: 0,
  lastCodeSentAt: null,
  failedAttempts: 0,
  lockedUntil: null,
  walletEmail: null,
  payoutStarted: false,
  failureReason: null,
  updatedAt: null,
  abandoned: false,
  confirmedBy: null,
});

const plusSeconds = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();
const refOf = (s: SessionCreatedData): SessionRef => ({ sessionId: s.sessionId, companyId: s.companyId, amountCents: s.amountCents, currency: s.currency });

/** Waiting for its recipient: created and not yet past expiresAt (the expiry timer may not have fired yet). */
function assertClaimable(state: SessionState, now: string): SessionCreatedData {
  const s = state.session;
  if (!s) throw new PayoutEmbedNotClaimableError('unknown');
  if (s.status !== 'created') throw new PayoutEmbedNotClaimableError(s.status);
  if (now >= s.expiresAt) throw new PayoutEmbedNotClaimableError('expired');
  if (awaitsConfirmation(state)) throw new PayoutEmbedAwaitingConfirmationError();
  if (state.lockedUntil !== null && now < state.lockedUntil) throw new PayoutEmbedClaimLockedError(state.lockedUntil);
  return s;
}

/**
 * Issue 30 (DESIGN 15 "Agreement": a two-person rule needs two different people): a session above the company's
 * threshold is confirmed by someone other than the actor that started it. A repeat, or a session that needs no
 * confirmation, decides nothing.
 */
function confirm(state: SessionState, by: string, now: string): SessionEvent[] {
  const s = state.session;
  if (!s) throw new PayoutEmbedNotConfirmableError('unknown');
  if (!s.confirmation || state.confirmedBy !== null) return [];
  if (s.status !== 'created' || now >= s.expiresAt) throw new PayoutEmbedNotConfirmableError(s.status === 'created' ? 'expired' : s.status);
  if (by === s.confirmation.startedBy) throw new SelfApprovalError();
  return [{ type: 'payout_embed.session.confirmed', data: { sessionId: s.sessionId, companyId: s.companyId, confirmedBy: by, confirmedAt: now } }];
}

/**
 * One Payout Embed session (docs/payout-embed.md#lifecycle): created -> claimed -> completed | failed;
 * created | claimed -> expired | cancelled while no payout has started. Repeats of a transition that
 * already happened decide nothing, so process managers and retries are safe.
 */
export const payoutEmbedSessionDecider: Decider<PayoutEmbedCommand, SessionEvent, SessionState> = {
  initialState,
  decide(command, state) {
    const s = state.session;
    switch (command.type) {
      case 'CreateSession':
        if (s) {
          if (s.requestHash !== command.data.requestHash) throw new IdempotencyKeyReusedError();
          return [];
        }
        // The timer released this id's reservation (or is about to): no session may start on it.
        if (state.abandoned) throw new PayoutEmbedReservationAbandonedError();
        return [{ type: 'payout_embed.session.created', data: command.data }];
      case 'Abandon':
        // A session was written in time (it owns the reservation), or the id is closed already.
        if (s || state.abandoned) return [];
        return [{ type: 'payout_embed.session.abandoned', data: { sessionId: command.data.sessionId, companyId: command.data.companyId, abandonedAt: command.metadata.now } }];
      case 'Confirm':
        return confirm(state, command.data.by, command.metadata.now);
      case 'SendCode': {
        const { codeHash } = command.data;
        const { now } = command.metadata;
        assertClaimable(state, now);
        if (state.codesSent >= MAX_CODES_PER_SESSION) throw new PayoutEmbedCodeLimitError(`At most ${MAX_CODES_PER_SESSION} codes are sent per payout`, null);
        if (state.lastCodeSentAt !== null && now < plusSeconds(state.lastCodeSentAt, CODE_RESEND_SECONDS)) {
          const retryAt = plusSeconds(state.lastCodeSentAt, CODE_RESEND_SECONDS);
          throw new PayoutEmbedCodeLimitError(`A code was just sent; ask again after ${retryAt}`, retryAt);
        }
        return [{ type: 'payout_embed.session.code_sent', data: { sessionId: s!.sessionId, codeHash, sentAt: now, codeExpiresAt: plusSeconds(now, CODE_TTL_SECONDS) } }];
      }
      case 'Claim': {
        const { codeHash } = command.data;
        const { now } = command.metadata;
        const session = assertClaimable(state, now);
        if (state.codeHash === null || state.codeExpiresAt === null || now >= state.codeExpiresAt) throw new PayoutEmbedCodeExpiredError();
        if (codeHash !== state.codeHash) {
          const failedAttempts = state.failedAttempts + 1;
          const lockedUntil = failedAttempts >= MAX_WRONG_CODES ? plusSeconds(now, LOCK_SECONDS) : null;
          return [{ type: 'payout_embed.session.code_rejected', data: { sessionId: session.sessionId, failedAttempts, lockedUntil, rejectedAt: now } }];
        }
        return [{ type: 'payout_embed.session.claimed', data: { ...refOf(session), claimedAt: now } }];
      }
      case 'NameWallet': {
        const { walletEmail } = command.data;
        const { now } = command.metadata;
        if (!s) throw new PayoutEmbedNotAwaitingWalletError('unknown');
        if (state.payoutStarted && state.walletEmail === walletEmail) return [];
        if (s.status !== 'claimed' || state.payoutStarted) throw new PayoutEmbedNotAwaitingWalletError(s.status);
        return [{ type: 'payout_embed.session.payout_started', data: { ...refOf(s), payoutId: s.payoutId, walletEmail, startedAt: now } }];
      }
      case 'CompletePayout':
      case 'FailPayout': {
        if (!s || !state.payoutStarted) throw new PayoutEmbedPayoutNotStartedError();
        if (s.status !== 'claimed') return [];
        const base = { ...refOf(s), payoutId: s.payoutId, walletEmail: state.walletEmail! };
        return command.type === 'CompletePayout'
          ? [{ type: 'payout_embed.session.completed', data: { ...base, completedAt: command.metadata.now } }]
          : [{ type: 'payout_embed.session.failed', data: { ...base, failureReason: command.data.failureReason, failedAt: command.metadata.now } }];
      }
      case 'Expire':
        // A payout in flight finishes on its own; an early or repeated timer changes nothing.
        if (!s || (s.status !== 'created' && s.status !== 'claimed') || state.payoutStarted || command.metadata.now < s.expiresAt) return [];
        return [{ type: 'payout_embed.session.expired', data: { ...refOf(s), expiredAt: command.metadata.now } }];
      case 'Cancel':
        if (!s) throw new PayoutEmbedNotCancellableError('unknown');
        if (s.status === 'cancelled') return [];
        if ((s.status !== 'created' && s.status !== 'claimed') || state.payoutStarted) throw new PayoutEmbedNotCancellableError(s.status);
        return [{ type: 'payout_embed.session.cancelled', data: { ...refOf(s), cancelledAt: command.metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    const s = state.session;
    switch (event.type) {
      case 'payout_embed.session.created':
        return { ...state, session: { ...event.data, status: 'created' }, updatedAt: event.data.createdAt };
      case 'payout_embed.session.confirmed':
        return { ...state, confirmedBy: event.data.confirmedBy, updatedAt: event.data.confirmedAt };
      case 'payout_embed.session.code_sent':
        return {
          ...state,
          codeHash: event.data.codeHash,
          codeExpiresAt: event.data.codeExpiresAt,
          codesSent: state.codesSent + 1,
          lastCodeSentAt: event.data.sentAt,
          updatedAt: event.data.sentAt,
        };
      case 'payout_embed.session.code_rejected':
        // A lock burns the code and starts a fresh count once it ends.
        return event.data.lockedUntil !== null
          ? { ...state, failedAttempts: 0, lockedUntil: event.data.lockedUntil, codeHash: null, codeExpiresAt: null }
          : { ...state, failedAttempts: event.data.failedAttempts };
      case 'payout_embed.session.claimed':
        return { ...state, session: { ...s!, status: 'claimed' }, codeHash: null, codeExpiresAt: null, updatedAt: event.data.claimedAt };
      case 'payout_embed.session.payout_started':
        return { ...state, walletEmail: event.data.walletEmail, payoutStarted: true, updatedAt: event.data.startedAt };
      case 'payout_embed.session.completed':
        return { ...state, session: { ...s!, status: 'completed' }, updatedAt: event.data.completedAt };
      case 'payout_embed.session.failed':
        return { ...state, session: { ...s!, status: 'failed' }, failureReason: event.data.failureReason, updatedAt: event.data.failedAt };
      case 'payout_embed.session.expired':
        return { ...state, session: { ...s!, status: 'expired' }, codeHash: null, updatedAt: event.data.expiredAt };
      case 'payout_embed.session.cancelled':
        return { ...state, session: { ...s!, status: 'cancelled' }, codeHash: null, updatedAt: event.data.cancelledAt };
      case 'payout_embed.session.abandoned':
        return { ...state, abandoned: true, updatedAt: event.data.abandonedAt };
      default:
        return assertNever(event);
    }
  },
};

/** The sandbox payout rail: a wallet email whose local part contains `+fail` is refused. */
export function sandboxWalletOutcome(walletEmail: string): { ok: true } | { ok: false; reason: string } {
  const local = walletEmail.split('@')[0] ?? '';
  return local.includes('+fail') ? { ok: false, reason: 'Sandbox rail: the wallet refused the payout (+fail)' } : { ok: true };
}
