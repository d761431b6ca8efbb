import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SplitStream } from './split-stream';

/** A row's transfer payout failed: recorded with the time of the next attempt (`split.roster_entry.failed`). */
export class FailRowTransferMessage {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly payoutId: string,
    readonly reason: string,
    readonly nextAttemptAt: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(FailRowTransferMessage)
export class FailRowTransferHandler implements ICommandHandler<FailRowTransferMessage> {
  constructor(private readonly split: SplitStream) {}

  async execute({ splitId, distributionId, payoutId, reason, nextAttemptAt, context }: FailRowTransferMessage): Promise<void> {
    await this.split.handle({ type: 'FailRowTransfer', data: { splitId, distributionId, payoutId, reason, nextAttemptAt }, metadata: this.split.metadata(context) }, context);
  }
}
