import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { ACCOUNT_STREAM_PREFIX, AccountEvent, API_KEY_STREAM_PREFIX, ApiKeyEvent } from '../domain/identity.events';

export interface CompanyDoc {
  id: string;
  name: string;
  createdAt: string;
}

export interface UserDoc {
  id: string;
  companyId: string;
  email: string;
  passwordHash: string | null;
  createdAt: string;
  /**
   * false: a password sign-up whose emailed link was not followed yet. Absent or true: the address is
   * proven (passwordless accounts, accounts registered before issue 24, verified ones).
   */
  emailVerified?: boolean;
  /** Set when the user lost its (unverified) address to the account provisioned for the address's owner: never found by email again. */
  releasedAt?: string;
}

export interface ApiKeyDoc {
  id: string;
  companyId: string;
  name: string;
  scopes: string[];
  keyHash: string;
  lastFour: string;
  /** Null for keys issued before prefixes were recorded. */
  prefix: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export const COMPANIES = 'companies';
export const USERS = 'users';
export const API_KEYS = 'api_keys';

type IdentityEvent = AccountEvent | ApiKeyEvent;
const TYPES = new Set<string>(['company.registered', 'user.registered', 'user.email_verified', 'user.email_released', 'user.password_reset', 'api_key.issued', 'api_key.revoked']);

/** Companies, users (looked up by email at login) and API keys (looked up by hash on every request). */
@Injectable()
@LogSubscriber()
export class IdentityReadModelProjection implements Projection {
  readonly name = 'identity';
  readonly streams = [ACCOUNT_STREAM_PREFIX, API_KEY_STREAM_PREFIX];
  readonly collections = [
    { name: COMPANIES, readMostly: true },
    { name: USERS, indexes: [['email']] },
    { name: API_KEYS, indexes: [['keyHash'], ['companyId', 'createdAt']] },
  ];

  handles(event: RecordedEvent): boolean {
    return TYPES.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as IdentityEvent;
    switch (event.type) {
      case 'company.registered':
        writer.put<CompanyDoc>(COMPANIES, { id: event.data.companyId, name: event.data.name, createdAt: event.data.registeredAt });
        return;
      case 'user.registered':
        writer.put<UserDoc>(USERS, {
          id: event.data.userId,
          companyId: event.data.companyId,
          email: event.data.email,
          passwordHash: event.data.passwordHash,
          createdAt: event.data.registeredAt,
          emailVerified: event.data.emailVerified !== false,
        });
        return;
      case 'user.email_verified': {
        const user = await writer.get<UserDoc>(USERS, event.data.userId);
        if (!user) throw new Error(`user.email_verified for unknown user ${event.data.userId} (event ${recorded.id})`);
        writer.put<UserDoc>(USERS, { ...user, emailVerified: true });
        return;
      }
      case 'user.email_released': {
        const user = await writer.get<UserDoc>(USERS, event.data.userId);
        if (!user) throw new Error(`user.email_released for unknown user ${event.data.userId} (event ${recorded.id})`);
        writer.put<UserDoc>(USERS, { ...user, releasedAt: event.data.releasedAt });
        return;
      }
      case 'user.password_reset': {
        const user = await writer.get<UserDoc>(USERS, event.data.userId);
        if (!user) throw new Error(`user.password_reset for unknown user ${event.data.userId} (event ${recorded.id})`);
        writer.put<UserDoc>(USERS, { ...user, passwordHash: event.data.passwordHash });
        return;
      }
      case 'api_key.issued':
        writer.put<ApiKeyDoc>(API_KEYS, {
          id: event.data.keyId,
          companyId: event.data.companyId,
          name: event.data.name,
          scopes: event.data.scopes,
          keyHash: event.data.keyHash,
          lastFour: event.data.lastFour,
          prefix: event.data.prefix ?? null,
          createdAt: event.data.issuedAt,
          revokedAt: null,
        });
        return;
      case 'api_key.revoked': {
        const key = await writer.get<ApiKeyDoc>(API_KEYS, event.data.keyId);
        if (key) writer.put<ApiKeyDoc>(API_KEYS, { ...key, revokedAt: event.data.revokedAt });
        return;
      }
    }
  }
}
