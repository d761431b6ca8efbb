import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, ReadStore } from '../../platform/read-store/read-store.port';
import { CredentialResolver, Principal, Scope } from '../../platform/http/auth';
import { ApiKeyDoc } from '../projections/identity-read-model.projection';
import { hashToken } from './tokens';
import { SESSIONS, SessionDoc } from './session.store';

@Injectable()
export class CredentialResolverService implements CredentialResolver {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async resolve(token: string): Promise<Principal | null> {
    const hash = hashToken(token);
    if (token.startsWith('sk_')) {
      const [key] = await this.store.find<ApiKeyDoc>('api_keys', { filter: { keyHash: hash }, limit: 1 });
      if (!key || key.revokedAt) return null;
      return { kind: 'api_key', companyId: key.companyId, keyId: key.id, scopes: key.scopes as Scope[] };
    }
    if (token.startsWith('sess_')) {
      const session = await this.store.getOperational<SessionDoc>(SESSIONS, hash);
      if (!session) return null;
      return { kind: 'session', companyId: session.companyId, userId: session.userId, sessionId: session.id };
    }
    return null;
  }
}
