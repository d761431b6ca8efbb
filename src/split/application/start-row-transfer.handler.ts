import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository, CommandContext, Decided } from '../../platform/event-sourcing/aggregate-repository';
import { deterministicId } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { splitDecider } from '../domain/split.decider';
import { SplitEvent, splitStreamId } from '../domain/split.events';
import { SplitState } from '../domain/split.state';

/**
 * Starts one row's transfer: at funding (early rows), at net-terms maturity, on a retry, or as the SME's
 * on-demand instant payout. The payout id is fixed per attempt (attempt = the row's previous attempt + 1),
 * so a repeated command starts nothing twice.
 */
export class StartRowTransferCommand extends Command<Decided<SplitEvent, SplitState>> {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly instant: boolean,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(StartRowTransferCommand)
export class StartRowTransferHandler implements ICommandHandler<StartRowTransferCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ splitId, distributionId, instant, context }: StartRowTransferCommand): Promise<Decided<SplitEvent, SplitState>> {
    const stream = splitStreamId(splitId);
    const { state } = await this.aggregates.load(stream, splitDecider);
    const attempt = state.status === 'none' ? 1 : (state.rows[distributionId]?.attempt ?? 0) + 1;
    const payoutId = deterministicId('po', splitId, distributionId, 'transfer', String(attempt));
    return this.aggregates.handle(
      stream,
      splitDecider,
      { type: 'StartRowTransfer', data: { splitId, distributionId, instant, earlyPayoutFeeBps: this.config.earlyPayoutFeeBps, payoutId, now: this.clock.now().toISOString() } },
      context,
    );
  }
}
