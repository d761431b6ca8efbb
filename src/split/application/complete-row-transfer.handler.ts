import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SplitStream } from './split-stream';

/** A row's transfer payout completed: the row settles (and the Split with its last row). */
export class CompleteRowTransferCommand {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CompleteRowTransferCommand)
export class CompleteRowTransferHandler implements ICommandHandler<CompleteRowTransferCommand> {
  constructor(private readonly split: SplitStream) {}

  async execute({ splitId, distributionId, payoutId, context }: CompleteRowTransferCommand): Promise<void> {
    await this.split.handle({ type: 'CompleteRowTransfer', data: { splitId, distributionId, payoutId, now: this.split.now() } }, context);
  }
}
