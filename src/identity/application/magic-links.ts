import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, REAL_CLOCK } from '../../platform/clock/clock';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { newId } from '../../platform/ids/ids';
import { expiresIn, hashToken, hasExpired, newSecretToken } from './tokens';
import { MagicLinkInvalidError } from '../domain/identity.errors';
import { userByEmail } from './identity.queries';
import { Outbox, OutboxMessage } from './outbox';

export const MAGIC_LINKS = 'magic_links';
/** Per account: how many links were sent on request in the current window. */
export const MAGIC_LINK_REQUESTS = 'magic_link_requests';
/** Links sent on request per account per window; more requests in the window send nothing. */
export const MAGIC_LINK_REQUESTS_PER_WINDOW = 3;
const MAGIC_LINK_REQUEST_WINDOW_SECONDS = 3_600;

interface MagicLinkDoc {
  id: string;
  userId: string;
  companyId: string;
  createdAt: string;
  /** Real time, like a session's: moving the sandbox clock neither ages nor renews a link. */
  expiresAt: string;
  /** An invitation's link (issue 30): signing in with it makes the user a member of `companyId`. */
  inviteId?: string;
}

/**
 * Why a link is sent: the account was just made for a roster email, its owner asked for a new one, or a
 * password sign-up has to prove its address (following the link verifies it and signs in).
 */
export type MagicLinkReason = 'account_provisioned' | 'requested' | 'verify_email' | 'invitation';

const SUBJECTS: Record<MagicLinkReason, string> = {
  account_provisioned: 'Your Paysplit account is ready',
  requested: 'Your Paysplit sign-in link',
  verify_email: 'Confirm your email for Paysplit',
  invitation: 'You are invited to a company on Paysplit',
};

const FIRST_LINES: Record<MagicLinkReason, string> = {
  account_provisioned: 'Sign in to see your payouts',
  requested: 'Sign in to see your payouts',
  verify_email:
    'Someone signed up for Paysplit with this address. If it was you, confirm it (nobody can be paid at this address, and the account cannot withdraw, until it is confirmed); if not, ignore this message',
  invitation: 'You are invited to join a company on Paysplit. Sign in with this link to accept',
};

/**
 * Passwordless sign-in. The link's token is a secret, so it lives only in operational state (its hash)
 * and in the outbox message (sealed at rest, see Outbox); in the sandbox the outbox is readable at GET /api/sandbox/outbox. A link
 * works once, within MAGIC_LINK_TTL_SECONDS (7 days by default); its owner can ask for a new one.
 */
@Injectable()
export class MagicLinks {
  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(REAL_CLOCK) private readonly realClock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: Outbox,
  ) {}

  /** `invitation`: the link of an invitation to `companyId` (reason 'invitation'), and the company's name for the message. */
  async send(
    userId: string,
    companyId: string,
    email: string,
    reason: MagicLinkReason = 'account_provisioned',
    invitation?: { inviteId: string; companyName: string },
  ): Promise<void> {
    const now = this.clock.now();
    const { token, hash } = newSecretToken('ml');
    const expiresAt = expiresIn(this.realClock, this.config.magicLinkTtlSeconds);
    const doc: MagicLinkDoc = { id: hash, userId, companyId, createdAt: now.toISOString(), expiresAt, ...(invitation ? { inviteId: invitation.inviteId } : {}) };
    await this.store.putOperational(MAGIC_LINKS, doc);
    const link = `${this.config.publicBaseUrl}/api/auth/magic-link?token=${encodeURIComponent(token)}`;
    const message: OutboxMessage = {
      id: newId('evt', now.getTime()),
      to: email,
      subject: invitation ? `You are invited to join ${invitation.companyName} on Paysplit` : SUBJECTS[reason],
      body: `${FIRST_LINES[reason]}: ${link}\nThe link works once, until ${expiresAt}.`,
      link,
      sentAt: now.toISOString(),
    };
    await this.mail.send(message);
  }

  /**
   * Sends a new link if the email belongs to a passwordless account (or a new confirmation link to a
   * password sign-up that has not confirmed its address yet), at most
   * MAGIC_LINK_REQUESTS_PER_WINDOW an hour per account, so the endpoint cannot be used to flood a
   * mailbox; the count is atomic in the store, so concurrent requests cannot pass it. The caller
   * learns nothing either way (the endpoint answers the same), so the email cannot be probed for an
   * account, nor for its limit.
   */
  async sendOnRequest(email: string): Promise<void> {
    const user = await userByEmail(this.documents, email);
    // Passwordless accounts sign in by link; a password sign-up gets a new confirmation link until it is verified.
    const unverified = user?.emailVerified === false;
    if (!user || (user.passwordHash !== null && !unverified)) return;
    if (!(await this.countRequest(user.id))) return;
    await this.send(user.id, user.companyId, user.email, unverified ? 'verify_email' : 'requested');
  }

  /** Counts a request in the account's window; false when the window's links are used up. */
  private countRequest(userId: string): Promise<boolean> {
    const now = this.realClock.now().toISOString();
    const windowEndsAt = expiresIn(this.realClock, MAGIC_LINK_REQUEST_WINDOW_SECONDS);
    return this.store.useAllowance(MAGIC_LINK_REQUESTS, userId, MAGIC_LINK_REQUESTS_PER_WINDOW, now, windowEndsAt);
  }

  /**
   * Uses a magic-link token up and says whose it was (MagicLinkSignIn then proves the address and opens
   * the session). Single use: the link is deleted first, and of two concurrent claims only the one whose
   * delete removed it goes on. A link past its expiry is deleted and refused.
   */
  async claim(token: string): Promise<{ userId: string; companyId: string; inviteId: string | null }> {
    const link = await this.store.getOperational<MagicLinkDoc>(MAGIC_LINKS, hashToken(token));
    if (!link || !(await this.store.deleteOperational(MAGIC_LINKS, link.id)) || hasExpired(link, this.realClock)) {
      throw new MagicLinkInvalidError();
    }
    return { userId: link.userId, companyId: link.companyId, inviteId: link.inviteId ?? null };
  }

  outbox(limit = 1000): Promise<OutboxMessage[]> {
    return this.mail.list(limit);
  }
}
