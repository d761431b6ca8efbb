import { Inject, Injectable } from '@nestjs/common';
import { Clock, REAL_CLOCK } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { expiresIn } from './tokens';

/** Per user: the real time until which its sessions and password reset links were ended (issue 29 item 9). */
export const CREDENTIAL_CUTOFFS = 'credential_cutoffs';

interface CutoffDoc {
  id: string;
  endedAt: string;
  /** Once every credential issued before endedAt has expired anyway, the cutoff is purged. */
  expiresAt: string;
}

/**
 * Ends every session (and every other password reset link) of a user at once, when its password is reset.
 * Sessions are keyed by their token's hash, so they cannot be listed by user: instead one document per user
 * says until when its credentials were ended, and the credential resolver refuses (and deletes) a session
 * issued at or before that time. Real time, like the sessions' own expiry.
 */
@Injectable()
export class CredentialCutoffs {
  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(REAL_CLOCK) private readonly realClock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async endAll(userId: string): Promise<void> {
    const lives = Math.max(this.config.sessionTtlSeconds, this.config.passwordResetTtlSeconds);
    await this.store.putOperational<CutoffDoc>(CREDENTIAL_CUTOFFS, { id: userId, endedAt: this.realClock.now().toISOString(), expiresAt: expiresIn(this.realClock, lives) });
  }

  /** Whether a credential of the user issued at `issuedAt` (real time; absent: before issue 29) was ended. */
  async ended(userId: string, issuedAt: string | undefined): Promise<boolean> {
    const cutoff = await this.store.getOperational<CutoffDoc>(CREDENTIAL_CUTOFFS, userId);
    return cutoff !== null && (issuedAt === undefined || issuedAt <= cutoff.endedAt);
  }
}
