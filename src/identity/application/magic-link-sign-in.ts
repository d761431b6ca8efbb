import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { normalizeEmail } from '../../platform/domain/email';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { sha256Hex } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { accountDecider } from '../domain/account.decider';
import { MagicLinkInvalidError } from '../domain/identity.errors';
import { accountStreamId } from '../domain/identity.events';
import { USERS, UserDoc } from '../projections/identity-read-model.projection';
import { MagicLinks } from './magic-links';
import { SessionIssuer } from './session-issuer';
import { SignedIn } from './signup.handler';

/**
 * Signing in with an emailed link (POST /api/auth/magic-link/sign-in): the link is used up, and following
 * it proves the address: an unverified password sign-up becomes verified (user.email_verified on the
 * account stream; passwordless and older accounts need nothing). The link of a user that lost its address
 * to the address's owner (user.email_released) signs nobody in (issue 24).
 */
@Injectable()
export class MagicLinkSignIn {
  constructor(
    private readonly links: MagicLinks,
    private readonly sessions: SessionIssuer,
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async signIn(token: string, correlationId: string): Promise<SignedIn> {
    const { userId, companyId } = await this.links.claim(token);
    const user = await this.documents.get<UserDoc>(USERS, userId);
    if (!user || user.releasedAt !== undefined) throw new MagicLinkInvalidError();
    const result = await this.aggregates.handle(
      accountStreamId(sha256Hex(normalizeEmail(user.email))),
      accountDecider,
      { type: 'VerifyEmail', data: { userId, now: this.clock.now().toISOString() } },
      { actor: `user:${userId}`, correlationId },
    );
    await this.readYourWrites.after(result);
    return { userId, companyId, sessionToken: await this.sessions.issue(userId, companyId) };
  }
}
