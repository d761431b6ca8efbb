import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { payoutEmbedSessionDecider, sandboxWalletOutcome } from '../domain/payout-embed-session.decider';
import { sessionStreamId } from '../domain/payout-embed.events';

/** The payout started: the sandbox rail answers at once (a wallet with `+fail` in its local part refuses). */
export class SettleSandboxPayoutCommand extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(SettleSandboxPayoutCommand)
export class SettleSandboxPayoutHandler implements ICommandHandler<SettleSandboxPayoutCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, context }: SettleSandboxPayoutCommand): Promise<void> {
    const { state } = await this.aggregates.load(sessionStreamId(sessionId), payoutEmbedSessionDecider);
    if (!state.walletEmail || state.session?.status !== 'claimed') return;
    const outcome = sandboxWalletOutcome(state.walletEmail);
    const now = this.clock.now().toISOString();
    await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      outcome.ok ? { type: 'CompletePayout', data: { now } } : { type: 'FailPayout', data: { failureReason: outcome.reason, now } },
      context,
    );
  }
}
