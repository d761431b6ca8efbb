import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { normalizeEmail } from '../../platform/domain/email';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { newId } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { membersDecider } from '../domain/members.decider';
import { membersStreamId } from '../domain/members.events';
import type { Role } from '../domain/role';
import { AccountDirectory } from './account-directory';
import { company, userByEmail } from './identity.queries';
import { MagicLinks } from './magic-links';
import { founderOf } from './members.queries';

export interface InvitationSent {
  inviteId: string;
  email: string;
  role: Role;
  status: 'pending';
}

export class InviteMemberMessage extends Command<InvitationSent> {
  constructor(
    readonly companyId: string,
    readonly by: string,
    readonly email: string,
    readonly role: Role,
    readonly correlationId: string,
  ) {
    super();
  }
}

/**
 * POST /api/commerce/members: invites an address. The invitation is a magic link (sandbox outbox) of the
 * address's account; a person without one gets a passwordless account first, as a roster email does
 * (docs/decisions.md#teams-roles-and-two-person-approval). Signing in with the link makes them a member.
 */
@CommandHandler(InviteMemberMessage)
export class InviteMemberHandler implements ICommandHandler<InviteMemberMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    private readonly accounts: AccountDirectory,
    private readonly magicLinks: MagicLinks,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: InviteMemberMessage): Promise<InvitationSent> {
    const email = normalizeEmail(command.email);
    const context = { actor: `user:${command.by}`, correlationId: command.correlationId };
    const metadata = commandMetadata(this.clock, context);
    const inviteId = newId('inv', Date.parse(metadata.now));
    // A password sign-up that has not confirmed its address yet is invited too: only the address's owner
    // gets the link, and following it confirms the address (unlike a roster row, an invitation must not
    // hand the address to a new account).
    const existing = await userByEmail(this.documents, email);
    const founderUserId = await founderOf(this.documents, command.companyId);
    const result = await this.aggregates.handle(
      membersStreamId(command.companyId),
      membersDecider,
      {
        type: 'InviteMember',
        data: { companyId: command.companyId, inviteId, email, role: command.role, by: command.by, inviteeUserId: existing?.id ?? null, founderUserId },
        metadata,
      },
      context,
    );
    const userId = existing?.id ?? (await this.accounts.findOrProvision(email, null, context, { sendLink: false })).userId;
    const companyName = (await company(this.documents, command.companyId))?.name ?? 'a company';
    await this.magicLinks.send(userId, command.companyId, email, 'invitation', { inviteId, companyName });
    await this.readYourWrites.after(result);
    return { inviteId, email, role: command.role, status: 'pending' };
  }
}
