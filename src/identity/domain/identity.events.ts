import { DomainEvent } from '../../platform/domain/decider';
import type { Scope } from './principal';

export type CompanyRegistered = DomainEvent<'company.registered', { companyId: string; name: string; registeredAt: string }>;
export type UserRegistered = DomainEvent<
  'user.registered',
  {
    userId: string;
    companyId: string;
    email: string;
    passwordHash: string | null;
    registeredAt: string;
    /**
     * false for a password sign-up until its emailed link is followed (user.email_verified). Absent: the
     * address counts as proven: passwordless accounts (only the address's owner can sign in to them) and
     * every account registered before issue 24 (docs/decisions.md#account-safety).
     */
    emailVerified?: false;
  }
>;
/** The owner of an unverified password account followed the link emailed to its address. */
export type UserEmailVerified = DomainEvent<'user.email_verified', { userId: string; companyId: string; verifiedAt: string }>;
/**
 * An unverified password account lost its address: a roster row provisioned the address for its real
 * owner (a passwordless account, registered next in the same stream). The released user can no longer
 * sign in with the address; its company stays.
 */
export type UserEmailReleased = DomainEvent<'user.email_released', { userId: string; companyId: string; releasedAt: string }>;
/**
 * Issue 29 item 9, forgot password: the user followed an emailed, single-use reset link and chose a new
 * password (its scrypt hash, as user.registered's). Sessions are not events: they end in operational state.
 */
export type UserPasswordReset = DomainEvent<'user.password_reset', { userId: string; companyId: string; passwordHash: string; resetAt: string }>;
export type AccountEvent = CompanyRegistered | UserRegistered | UserEmailVerified | UserEmailReleased | UserPasswordReset;

export type ApiKeyIssued = DomainEvent<
  'api_key.issued',
  {
    keyId: string;
    companyId: string;
    name: string;
    scopes: Scope[];
    keyHash: string;
    lastFour: string;
    /** The key's first 11 characters (`sk_` and 8 more); absent on keys issued before the dashboard. */ prefix?: string;
    issuedAt: string;
    issuedBy: string;
  }
>;
export type ApiKeyRevoked = DomainEvent<'api_key.revoked', { keyId: string; companyId: string; revokedAt: string }>;
export type ApiKeyEvent = ApiKeyIssued | ApiKeyRevoked;

export const ACCOUNT_STREAM_PREFIX = 'account-';
export const accountStreamId = (emailHash: string) => `${ACCOUNT_STREAM_PREFIX}${emailHash}`;
export const API_KEY_STREAM_PREFIX = 'apikey-';
export const apiKeyStreamId = (keyId: string) => `${API_KEY_STREAM_PREFIX}${keyId}`;
