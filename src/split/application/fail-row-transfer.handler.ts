import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SplitStream } from './split-stream';

/** A row's transfer payout failed: recorded with the time of the next attempt (`split.roster_entry.failed`). */
export class FailRowTransferCommand {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly payoutId: string,
    readonly reason: string,
    readonly nextAttemptAt: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(FailRowTransferCommand)
export class FailRowTransferHandler implements ICommandHandler<FailRowTransferCommand> {
  constructor(private readonly split: SplitStream) {}

  async execute({ splitId, distributionId, payoutId, reason, nextAttemptAt, context }: FailRowTransferCommand): Promise<void> {
    await this.split.handle({ type: 'FailRowTransfer', data: { splitId, distributionId, payoutId, reason, nextAttemptAt }, metadata: this.split.metadata(context) }, context);
  }
}
