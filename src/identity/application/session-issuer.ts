import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { READ_STORE, ReadStore } from '../../platform/read-store/read-store.port';
import { SESSIONS, SessionDoc } from './session.store';
import { newSecretToken } from './tokens';

@Injectable()
export class SessionIssuer {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async issue(userId: string, companyId: string): Promise<string> {
    const { token, hash } = newSecretToken('sess');
    const session: SessionDoc = { id: hash, userId, companyId, createdAt: this.clock.now().toISOString() };
    await this.store.putOperational(SESSIONS, session);
    return token;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.store.deleteOperational(SESSIONS, sessionId);
  }
}
