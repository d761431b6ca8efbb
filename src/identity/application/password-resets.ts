import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, REAL_CLOCK } from '../../platform/clock/clock';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { newId } from '../../platform/ids/ids';
import { PasswordResetInvalidError } from '../domain/identity.errors';
import { expiresIn, hashToken, hasExpired, newSecretToken } from './tokens';
import { userByEmail } from './identity.queries';
import { MagicLinks } from './magic-links';
import { Outbox } from './outbox';
import { CredentialCutoffs } from './credential-cutoffs';

export const PASSWORD_RESETS = 'password_resets';
/** Per account: how many reset links were sent in the current window. */
export const PASSWORD_RESET_REQUESTS = 'password_reset_requests';
/** Reset links sent per account per window; more requests in the window send nothing (and answer the same). */
export const PASSWORD_RESET_REQUESTS_PER_WINDOW = 3;
const PASSWORD_RESET_REQUEST_WINDOW_SECONDS = 3_600;

interface PasswordResetDoc {
  id: string;
  userId: string;
  /** Real time: a reset link issued before the user's last reset is refused (CredentialCutoffs). */
  issuedAt: string;
  /** Real time, like a session's: the sandbox clock neither ages nor renews a link. */
  expiresAt: string;
}

/**
 * Forgot password (issue 29 item 9), built like magic links: the token is a secret, so only its hash is
 * stored (operational state) and the link travels in the sealed outbox. A link works once, within
 * PASSWORD_RESET_TTL_SECONDS (1 h by default) of real time, and not after a later reset of the same user.
 */
@Injectable()
export class PasswordResets {
  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(REAL_CLOCK) private readonly realClock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: Outbox,
    private readonly magicLinks: MagicLinks,
    private readonly cutoffs: CredentialCutoffs,
  ) {}

  /**
   * Emails a reset link to an account with a password, at most PASSWORD_RESET_REQUESTS_PER_WINDOW an hour
   * per account (atomic in the store). A passwordless account (a contractor's) has no password to forget: it
   * gets a sign-in link instead (MagicLinks.sendOnRequest, with its own limit). An unknown email gets
   * nothing. The caller learns nothing either way: the endpoint answers the same.
   */
  async sendOnRequest(email: string): Promise<void> {
    const user = await userByEmail(this.documents, email);
    if (!user) return;
    if (user.passwordHash === null) return this.magicLinks.sendOnRequest(email);
    if (!(await this.countRequest(user.id))) return;
    const now = this.clock.now();
    const { token, hash } = newSecretToken('pwr');
    const expiresAt = expiresIn(this.realClock, this.config.passwordResetTtlSeconds);
    await this.store.putOperational<PasswordResetDoc>(PASSWORD_RESETS, { id: hash, userId: user.id, issuedAt: this.realClock.now().toISOString(), expiresAt });
    const link = `${this.config.publicBaseUrl}/dashboard/reset-password?token=${encodeURIComponent(token)}`;
    await this.mail.send({
      id: newId('evt', now.getTime()),
      to: user.email,
      subject: 'Reset your Paysplit password',
      body:
        `Someone asked to reset the password of your Paysplit account. If it was you, choose a new password here: ${link}\n` +
        `The link works once, until ${expiresAt}; resetting signs you out everywhere. If it was not you, ignore this message: your password stays as it is.`,
      link,
      sentAt: now.toISOString(),
    });
  }

  private countRequest(userId: string): Promise<boolean> {
    const now = this.realClock.now().toISOString();
    const windowEndsAt = expiresIn(this.realClock, PASSWORD_RESET_REQUEST_WINDOW_SECONDS);
    return this.store.useAllowance(PASSWORD_RESET_REQUESTS, userId, PASSWORD_RESET_REQUESTS_PER_WINDOW, now, windowEndsAt);
  }

  /**
   * Uses a reset token up and says whose it was. Single use: the link is deleted first, and of two concurrent
   * claims only the one whose delete removed it goes on. Expired, or issued before a later reset: refused.
   */
  async claim(token: string): Promise<{ userId: string }> {
    const link = await this.store.getOperational<PasswordResetDoc>(PASSWORD_RESETS, hashToken(token));
    if (!link || !(await this.store.deleteOperational(PASSWORD_RESETS, link.id)) || hasExpired(link, this.realClock) || (await this.cutoffs.ended(link.userId, link.issuedAt))) {
      throw new PasswordResetInvalidError();
    }
    return { userId: link.userId };
  }
}
