import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { membersDecider } from '../domain/members.decider';
import { membersStreamId } from '../domain/members.events';
import { founderOf } from './members.queries';

export class RevokeInvitationMessage extends Command<void> {
  constructor(
    readonly companyId: string,
    readonly by: string,
    readonly inviteId: string,
    readonly correlationId: string,
  ) {
    super();
  }
}

/** DELETE /api/commerce/members/invitations/:inviteId: the emailed link signs nobody in any more. */
@CommandHandler(RevokeInvitationMessage)
export class RevokeInvitationHandler implements ICommandHandler<RevokeInvitationMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: RevokeInvitationMessage): Promise<void> {
    const founderUserId = await founderOf(this.documents, command.companyId);
    const context = { actor: `user:${command.by}`, correlationId: command.correlationId };
    const result = await this.aggregates.handle(
      membersStreamId(command.companyId),
      membersDecider,
      {
        type: 'RevokeInvitation',
        data: { companyId: command.companyId, inviteId: command.inviteId, by: command.by, founderUserId },
        metadata: commandMetadata(this.clock, context),
      },
      context,
    );
    await this.readYourWrites.after(result);
  }
}
