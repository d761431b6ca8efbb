import { DomainEvent } from '../../platform/domain/decider';
import type { Scope } from './principal';

export type CompanyRegistered = DomainEvent<'company.registered', { companyId: string; name: string; registeredAt: string }>;
export type UserRegistered = DomainEvent<'user.registered', { userId: string; companyId: string; email: string; passwordHash: string | null; registeredAt: string }>;
export type AccountEvent = CompanyRegistered | UserRegistered;

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
