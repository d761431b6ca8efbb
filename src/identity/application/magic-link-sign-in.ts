import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { normalizeEmail } from '../../platform/domain/email';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
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
import { chooseCompany } from './company-choice';
import { founderOf } from './members.queries';
import { membersDecider } from '../domain/members.decider';
import { membersStreamId } from '../domain/members.events';

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
    const { userId, companyId, inviteId } = await this.links.claim(token);
    const user = await this.documents.get<UserDoc>(USERS, userId);
    if (!user || user.releasedAt !== undefined) throw new MagicLinkInvalidError();
    const context = { actor: `user:${userId}`, correlationId };
    const metadata = commandMetadata(this.clock, context);
    const result = await this.aggregates.handle(
      accountStreamId(sha256Hex(normalizeEmail(user.email))),
      accountDecider,
      { type: 'VerifyEmail', data: { userId }, metadata },
      context,
    );
    await this.readYourWrites.after(result);
    if (inviteId !== null) {
      // An invitation's link (issue 30): following it accepts the invitation; the session is for that company.
      const founderUserId = await founderOf(this.documents, companyId);
      const joined = await this.aggregates.handle(
        membersStreamId(companyId),
        membersDecider,
        { type: 'AcceptInvitation', data: { companyId, inviteId, userId, email: user.email, founderUserId }, metadata },
        context,
      );
      await this.readYourWrites.after(joined);
    }
    const choice = await chooseCompany(this.documents, userId, inviteId !== null ? companyId : null, companyId);
    return { ...choice, userId, sessionToken: await this.sessions.issue(userId, choice.companyId) };
  }
}
