import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { StartRowTransfer } from '../domain/split.commands';
import { SplitStream } from './split-stream';

/**
 * A funded Split's instant rows start their transfers: one StartRowTransfer per row, decided in order and
 * appended together (the same events as one command per row, without a read and an append for each).
 */
export class StartInstantTransfersMessage {
  constructor(
    readonly splitId: string,
    readonly distributionIds: string[],
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(StartInstantTransfersMessage)
export class StartInstantTransfersHandler implements ICommandHandler<StartInstantTransfersMessage> {
  constructor(
    private readonly split: SplitStream,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ splitId, distributionIds, context }: StartInstantTransfersMessage): Promise<void> {
    const metadata = this.split.metadata(context);
    const commands = distributionIds.map((distributionId): StartRowTransfer => ({
      type: 'StartRowTransfer',
      data: {
        splitId,
        distributionId,
        instant: true,
        onDemand: false,
        earlyPayoutFeeBps: this.config.earlyPayoutFeeBps,
      },
      metadata,
    }));
    await this.split.handleAll(splitId, commands, context);
  }
}
