import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { sessionStreamId } from '../domain/payout-embed.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The expiry timer fired: created or claimed sessions without a payout expire (the decider checks the time). */
export class ExpirePayoutEmbedSessionMessage extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ExpirePayoutEmbedSessionMessage)
export class ExpirePayoutEmbedSessionHandler implements ICommandHandler<ExpirePayoutEmbedSessionMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, context }: ExpirePayoutEmbedSessionMessage): Promise<void> {
    await this.aggregates.handle(sessionStreamId(sessionId), payoutEmbedSessionDecider, { type: 'Expire', data: {}, metadata: commandMetadata(this.clock, context) }, context);
  }
}
