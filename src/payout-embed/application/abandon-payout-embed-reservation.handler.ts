import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { sessionStreamId } from '../domain/payout-embed.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * The abandoned-reservation timer found no session: close the session id on its own stream first
 * (`payout_embed.session.abandoned`); the lifecycle workflow releases the reservation once that event is
 * in the log. A create that wrote its session first wins the stream, and this decides nothing (issue 23).
 */
export class AbandonPayoutEmbedReservationMessage extends Command<void> {
  constructor(
    readonly companyId: string,
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(AbandonPayoutEmbedReservationMessage)
export class AbandonPayoutEmbedReservationHandler implements ICommandHandler<AbandonPayoutEmbedReservationMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, sessionId, context }: AbandonPayoutEmbedReservationMessage): Promise<void> {
    const metadata = commandMetadata(this.clock, context);
    await this.aggregates.handle(sessionStreamId(sessionId), payoutEmbedSessionDecider, { type: 'Abandon', data: { sessionId, companyId }, metadata }, context);
  }
}
