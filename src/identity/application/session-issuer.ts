import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, REAL_CLOCK } from '../../platform/clock/clock';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { SESSIONS, SessionDoc } from './sessions.collection';
import { expiresIn, newSecretToken } from './tokens';

@Injectable()
export class SessionIssuer {
  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(REAL_CLOCK) private readonly realClock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async issue(userId: string, companyId: string): Promise<string> {
    const { token, hash } = newSecretToken('sess');
    const expiresAt = expiresIn(this.realClock, this.config.sessionTtlSeconds);
    const session: SessionDoc = { id: hash, userId, companyId, createdAt: this.clock.now().toISOString(), issuedAt: this.realClock.now().toISOString(), expiresAt };
    await this.store.putOperational(SESSIONS, session);
    return token;
  }

  /** The session now acts for another company of its user (the caller checked the membership). */
  async switchCompany(sessionId: string, companyId: string): Promise<void> {
    const session = await this.store.getOperational<SessionDoc>(SESSIONS, sessionId);
    if (session) await this.store.putOperational(SESSIONS, { ...session, companyId });
  }

  async revoke(sessionId: string): Promise<void> {
    await this.store.deleteOperational(SESSIONS, sessionId);
  }
}
