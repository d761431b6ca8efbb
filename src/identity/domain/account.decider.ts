import { assertNever, Decider } from '../../platform/domain/decider';
import { EmailAlreadyRegisteredError, MagicLinkInvalidError, PasswordResetInvalidError } from './identity.errors';
import { AccountEvent } from './identity.events';
import { CommandMetadata } from '../../platform/domain/command';

type Registration = { companyId: string; companyName: string; userId: string; email: string };

export type AccountCommand =
  /** A sign-up (password) or, with passwordHash null, an account provisioned for a roster email. */
  | { type: 'RegisterAccount'; data: Registration & { passwordHash: string | null }; metadata: CommandMetadata }
  /** A roster row or sandbox creator for the email: a passwordless account, unless a verified one exists. */
  | { type: 'ProvisionAccount'; data: Registration; metadata: CommandMetadata }
  /** The account's user followed a link emailed to the address. */
  | { type: 'VerifyEmail'; data: { userId: string }; metadata: CommandMetadata }
  /** Issue 29 item 9: the user followed its emailed reset link with a new password (its hash). */
  | { type: 'ResetPassword'; data: { userId: string; passwordHash: string }; metadata: CommandMetadata };

export type AccountState = { status: 'none' } | { status: 'registered'; companyId: string; userId: string; verified: boolean };

/**
 * One account stream per email: signing up twice with an email is a conflict, decided by the stream. A
 * password sign-up is unverified until its owner follows the emailed link; until then a roster row for
 * the address provisions the address for its real owner instead of attaching the unverified account
 * (issue 24: nobody can claim someone else's payouts by signing up first with their address).
 */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    switch (command.type) {
      case 'RegisterAccount':
        return registerAccount(command.data, state, command.metadata);
      case 'ProvisionAccount':
        return provisionAccount(command.data, state, command.metadata);
      case 'VerifyEmail':
        return verifyEmail(command.data, state, command.metadata);
      case 'ResetPassword':
        return resetPassword(command.data, state, command.metadata);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'company.registered':
        return state;
      case 'user.registered':
        // Absent emailVerified: passwordless, or registered before verification existed: proven.
        return { status: 'registered', companyId: event.data.companyId, userId: event.data.userId, verified: event.data.emailVerified !== false };
      case 'user.email_verified':
        return state.status === 'registered' ? { ...state, verified: true } : state;
      case 'user.email_released':
        return { status: 'none' };
      case 'user.password_reset':
        return state;
      default:
        return assertNever(event);
    }
  },
};

function registered(data: Registration, passwordHash: string | null, meta: CommandMetadata): AccountEvent[] {
  return [
    { type: 'company.registered', data: { companyId: data.companyId, name: data.companyName, registeredAt: meta.now } },
    {
      type: 'user.registered',
      data: {
        userId: data.userId,
        companyId: data.companyId,
        email: data.email,
        passwordHash,
        registeredAt: meta.now,
        ...(passwordHash !== null ? { emailVerified: false as const } : {}),
      },
    },
  ];
}

function registerAccount(data: Extract<AccountCommand, { type: 'RegisterAccount' }>['data'], state: AccountState, meta: CommandMetadata): AccountEvent[] {
  if (state.status !== 'none') throw new EmailAlreadyRegisteredError();
  return registered(data, data.passwordHash, meta);
}

/** Spec 4.5 "no account": an unverified account is no account; it loses the address to its owner's new one. */
function provisionAccount(data: Registration, state: AccountState, meta: CommandMetadata): AccountEvent[] {
  if (state.status === 'none') return registered(data, null, meta);
  if (state.verified) throw new EmailAlreadyRegisteredError();
  return [{ type: 'user.email_released', data: { userId: state.userId, companyId: state.companyId, releasedAt: meta.now } }, ...registered(data, null, meta)];
}

/** Only the address's current user can verify it; a link of a user that lost the address is dead. */
function verifyEmail(data: Extract<AccountCommand, { type: 'VerifyEmail' }>['data'], state: AccountState, meta: CommandMetadata): AccountEvent[] {
  if (state.status !== 'registered' || state.userId !== data.userId) throw new MagicLinkInvalidError();
  if (state.verified) return [];
  return [{ type: 'user.email_verified', data: { userId: state.userId, companyId: state.companyId, verifiedAt: meta.now } }];
}

/**
 * Only the address's current user can reset its password (a link of a user that lost the address is dead).
 * The link was emailed to the address, so following it also proves the address of an unverified sign-up.
 */
function resetPassword(data: Extract<AccountCommand, { type: 'ResetPassword' }>['data'], state: AccountState, meta: CommandMetadata): AccountEvent[] {
  if (state.status !== 'registered' || state.userId !== data.userId) throw new PasswordResetInvalidError();
  const reset: AccountEvent = { type: 'user.password_reset', data: { userId: state.userId, companyId: state.companyId, passwordHash: data.passwordHash, resetAt: meta.now } };
  if (state.verified) return [reset];
  return [reset, { type: 'user.email_verified', data: { userId: state.userId, companyId: state.companyId, verifiedAt: meta.now } }];
}
