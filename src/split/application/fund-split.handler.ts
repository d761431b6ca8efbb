import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { SplitStream } from './split-stream';

/** Leg A was paid: the Split funds (the SME's balance is credited, the margin held). */
export class FundSplitMessage {
  constructor(
    readonly splitId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(FundSplitMessage)
export class FundSplitHandler implements ICommandHandler<FundSplitMessage> {
  constructor(
    private readonly split: SplitStream,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ splitId, context }: FundSplitMessage): Promise<void> {
    await this.split.handle({ type: 'FundSplit', data: { splitId, earlyPayoutFeeBps: this.config.earlyPayoutFeeBps }, metadata: this.split.metadata(context) }, context);
  }
}
