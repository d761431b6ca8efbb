import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { Written } from '../../platform/projections/read-your-writes';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { SplitStream } from './split-stream';

/**
 * Starts one row's transfer: at funding (instant rows), at net-terms maturity, on a retry, or as the
 * SME's on-demand instant payout. The decider fixes the payout id per attempt, so a repeat decides nothing.
 */
export class StartRowTransferMessage extends Command<Written> {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly instant: boolean,
    readonly context: CommandContext,
    /** The SME's on-demand payout: a row already started is a 409, whoever won the race. */
    readonly onDemand = false,
  ) {
    super();
  }
}

@CommandHandler(StartRowTransferMessage)
export class StartRowTransferHandler implements ICommandHandler<StartRowTransferMessage> {
  constructor(
    private readonly split: SplitStream,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ splitId, distributionId, instant, context, onDemand }: StartRowTransferMessage): Promise<Written> {
    const earlyPayoutFeeBps = this.config.earlyPayoutFeeBps;
    return this.split.handle(
      { type: 'StartRowTransfer', data: { splitId, distributionId, instant, onDemand, earlyPayoutFeeBps }, metadata: this.split.metadata(context) },
      context,
    );
  }
}
