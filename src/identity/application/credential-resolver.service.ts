import { Inject, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock, REAL_CLOCK } from '../../platform/clock/clock';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import type { Principal, Scope } from '../domain/principal';
import { CredentialResolver } from './credential-resolver.port';
import { apiKeyByHash } from './identity.queries';
import { ApiKeyUsage } from './api-key-usage';
import { hashToken, hasExpired } from './tokens';
import { SESSIONS, SessionDoc } from './sessions.collection';
import { roleIn } from './members.queries';
import { CredentialCutoffs } from './credential-cutoffs';

/**
 * How long an API key's principal is reused without looking the key up again. Every integration call
 * carries a key, and the lookup would cost more than the rest of a cheap request. Revoking a key clears
 * it here at once; another API process may accept the revoked key for up to this long.
 */
export const API_KEY_CACHE_MS = 1_000;

@Injectable()
export class CredentialResolverService implements CredentialResolver {
  private readonly apiKeys = new Map<string, { principal: Principal & { kind: 'api_key' }; until: number }>();
  /** Counts revocations seen here: a lookup that started before one must not refill the cache. */
  private forgotten = 0;

  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(REAL_CLOCK) private readonly realClock: Clock,
    private readonly usage: ApiKeyUsage,
    private readonly cutoffs: CredentialCutoffs,
  ) {}

  async resolve(token: string): Promise<Principal | null> {
    const hash = hashToken(token);
    if (token.startsWith('sk_')) {
      const principal = await this.apiKey(hash);
      if (principal?.kind === 'api_key') await this.usage.record(principal.keyId);
      return principal;
    }
    if (token.startsWith('sess_')) {
      const session = await this.store.getOperational<SessionDoc>(SESSIONS, hash);
      if (!session) return null;
      // A password reset ends every session issued before it (issue 29 item 9).
      if (hasExpired(session, this.realClock) || (await this.cutoffs.ended(session.userId, session.issuedAt))) {
        await this.store.deleteOperational(SESSIONS, hash);
        return null;
      }
      // The member's role is read on every call: a role change or a removal applies to the next request.
      const role = await roleIn(this.documents, session.companyId, session.userId);
      if (!role) return null;
      return { kind: 'session', companyId: session.companyId, userId: session.userId, sessionId: session.id, role };
    }
    return null;
  }

  /** Called once a revocation is recorded, so this process refuses the key from the next request on. */
  forgetApiKey(keyId: string): void {
    this.forgotten += 1;
    for (const [hash, cached] of this.apiKeys) if (cached.principal.keyId === keyId) this.apiKeys.delete(hash);
  }

  private async apiKey(hash: string): Promise<Principal | null> {
    const now = performance.now();
    const cached = this.apiKeys.get(hash);
    if (cached && cached.until > now) return cached.principal;
    const forgottenBefore = this.forgotten;
    const key = await apiKeyByHash(this.documents, hash);
    if (!key || key.revokedAt) {
      this.apiKeys.delete(hash);
      return null;
    }
    const principal = { kind: 'api_key' as const, companyId: key.companyId, keyId: key.id, scopes: key.scopes as Scope[] };
    if (this.apiKeys.size >= 10_000) this.apiKeys.clear();
    if (forgottenBefore === this.forgotten) this.apiKeys.set(hash, { principal, until: now + API_KEY_CACHE_MS });
    return principal;
  }
}
