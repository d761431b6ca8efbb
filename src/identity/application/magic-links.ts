import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { READ_STORE, ReadStore } from '../../platform/read-store/read-store.port';
import { newId } from '../../platform/ids/ids';
import { hashToken, newSecretToken } from './tokens';
import { SessionIssuer } from './session-issuer';
import { UnauthenticatedError } from '../domain/identity.errors';

export const MAGIC_LINKS = 'magic_links';
export const OUTBOX = 'outbox';

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  link: string;
  sentAt: string;
  [field: string]: unknown;
}

interface MagicLinkDoc {
  id: string;
  userId: string;
  companyId: string;
  createdAt: string;
  [field: string]: unknown;
}

/**
 * Passwordless sign-in. The link's token is a secret, so it lives only in operational state (its hash)
 * and in the outbox message; in the sandbox the outbox is readable at GET /api/sandbox/outbox.
 */
@Injectable()
export class MagicLinks {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionIssuer,
  ) {}

  async send(userId: string, companyId: string, email: string): Promise<void> {
    const now = this.clock.now();
    const { token, hash } = newSecretToken('ml');
    await this.store.putOperational(MAGIC_LINKS, { id: hash, userId, companyId, createdAt: now.toISOString() } satisfies MagicLinkDoc);
    const link = `${this.config.publicBaseUrl}/api/auth/magic-link?token=${encodeURIComponent(token)}`;
    const message: OutboxMessage = {
      id: newId('evt', now.getTime()),
      to: email,
      subject: 'Your Paysplit account is ready',
      body: `Sign in to see your payouts: ${link}`,
      link,
      sentAt: now.toISOString(),
    };
    await this.store.putOperational(OUTBOX, message);
  }

  /** Exchanges a magic-link token (single use: of two concurrent redeems, one wins) for a session. */
  async redeem(token: string): Promise<{ userId: string; companyId: string; sessionToken: string }> {
    const link = await this.store.getOperational<MagicLinkDoc>(MAGIC_LINKS, hashToken(token));
    if (!link || !(await this.store.deleteOperational(MAGIC_LINKS, link.id))) {
      throw new UnauthenticatedError('This sign-in link is invalid or was already used');
    }
    return { userId: link.userId, companyId: link.companyId, sessionToken: await this.sessions.issue(link.userId, link.companyId) };
  }

  outbox(limit = 1000): Promise<OutboxMessage[]> {
    return this.store.listOperational<OutboxMessage>(OUTBOX, limit);
  }
}
