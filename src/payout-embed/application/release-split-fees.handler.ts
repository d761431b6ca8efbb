import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { formatCents } from '../../platform/money/money';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { coveredFeeCover, splitDecider, splitExists, splitStreamId } from '../../split';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId, SplitFeesReleaseReason } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** A Split ended: what was set aside for its covered fees and not paid as fees is available again (once). */
export class ReleaseSplitFeesMessage extends Command<void> {
  constructor(
    readonly splitId: string,
    readonly reason: SplitFeesReleaseReason,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ReleaseSplitFeesMessage)
export class ReleaseSplitFeesHandler implements ICommandHandler<ReleaseSplitFeesMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ splitId, reason, context }: ReleaseSplitFeesMessage): Promise<void> {
    const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    if (!splitExists(state) || !state.smeCoveredFeesDrawn) return;
    // A settled Split keeps what its covered rows paid from the balance; a rejected or cancelled one keeps nothing.
    const keep = reason === 'settled' ? coveredFeeCover(state, this.config.earlyPayoutFeeBps).fromBalanceCents : 0n;
    await this.aggregates.handle(
      balanceStreamId(state.smeCompanyId),
      companyBalanceDecider,
      { type: 'ReleaseSplitFees', data: { splitId, keepCents: formatCents(keep), reason }, metadata: commandMetadata(this.clock, context) },
      context,
      { retries: BALANCE_RETRIES },
    );
  }
}
