import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { sessionStreamId } from '../domain/payout-embed.events';
import { PayoutEmbedQueries } from './payout-embed.queries';
import { EmbedCommand, embedViewOf, EmbedView } from './embed-view';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export class NamePayoutWalletMessage extends EmbedCommand {
  constructor(
    sessionId: string,
    token: string,
    context: CommandContext,
    readonly walletEmail: string,
  ) {
    super(sessionId, token, context);
  }
}

/** Step 3: the wallet. The payout starts; the lifecycle workflow takes it to completed or failed. */
@CommandHandler(NamePayoutWalletMessage)
export class NamePayoutWalletHandler implements ICommandHandler<NamePayoutWalletMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: PayoutEmbedQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, token, context, walletEmail }: NamePayoutWalletMessage): Promise<EmbedView> {
    await this.queries.stateForToken(sessionId, token);
    const metadata = commandMetadata(this.clock, context);
    const result = await this.aggregates.handle(sessionStreamId(sessionId), payoutEmbedSessionDecider, { type: 'NameWallet', data: { walletEmail }, metadata }, context);
    const session = result.state.session!;
    return embedViewOf({ ...result.state, session }, metadata.now, await this.queries.senderName(session.companyId));
  }
}
