import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { PayoutEmbedSessionNotFoundError } from '../domain/payout-embed.errors';
import { balanceStreamId, sessionStreamId } from '../domain/payout-embed.events';
import { PayoutEmbedQueries, SessionView } from './payout-embed.queries';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export class CancelPayoutEmbedSessionMessage extends Command<SessionView> {
  constructor(
    readonly companyId: string,
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * The platform cancels its own session while created or claimed and before the payout starts (else
 * 409). The reservation is released here at once, so the balance is back when the answer arrives;
 * the lifecycle workflow releases it too if this process dies in between (a second release decides nothing).
 */
@CommandHandler(CancelPayoutEmbedSessionMessage)
export class CancelPayoutEmbedSessionHandler implements ICommandHandler<CancelPayoutEmbedSessionMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    private readonly queries: PayoutEmbedQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, sessionId, context }: CancelPayoutEmbedSessionMessage): Promise<SessionView> {
    const state = await this.queries.stateOf(sessionId);
    if (!state.session || state.session.companyId !== companyId) throw new PayoutEmbedSessionNotFoundError();
    const metadata = commandMetadata(this.clock, context);
    const cancelled = await this.aggregates.handle(sessionStreamId(sessionId), payoutEmbedSessionDecider, { type: 'Cancel', data: {}, metadata }, context);
    const released = await this.aggregates.handle(
      balanceStreamId(companyId),
      companyBalanceDecider,
      { type: 'Release', data: { sessionId, reason: 'cancelled' }, metadata },
      context,
      {
        retries: BALANCE_RETRIES,
      },
    );
    await this.readYourWrites.after(cancelled, released);
    return this.queries.get(sessionId, companyId);
  }
}
