import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { PayoutEmbedSessionNotFoundError } from '../domain/payout-embed.errors';
import { sessionStreamId } from '../domain/payout-embed.events';
import { PayoutEmbedQueries, SessionView } from './payout-embed.queries';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export class ConfirmPayoutEmbedSessionMessage extends Command<SessionView> {
  constructor(
    readonly companyId: string,
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * Issue 30, the SME-side two-person rule: a second finance or owner member confirms a session above the
 * company's threshold (the one who started it is refused, 403 SELF_APPROVAL); only then can its recipient claim it.
 */
@CommandHandler(ConfirmPayoutEmbedSessionMessage)
export class ConfirmPayoutEmbedSessionHandler implements ICommandHandler<ConfirmPayoutEmbedSessionMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    private readonly queries: PayoutEmbedQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, sessionId, context }: ConfirmPayoutEmbedSessionMessage): Promise<SessionView> {
    const state = await this.queries.stateOf(sessionId);
    if (!state.session || state.session.companyId !== companyId) throw new PayoutEmbedSessionNotFoundError();
    const confirmed = await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      { type: 'Confirm', data: { by: context.actor }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(confirmed);
    if (confirmed.events.length === 0) await this.readYourWrites.afterStream(sessionStreamId(sessionId));
    return this.queries.get(sessionId, companyId);
  }
}
