import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SplitStream } from './split-stream';

/**
 * A row's transfer payout completed: the row settles (and the Split with its last row), then it is
 * offered to the auto-withdrawal (the decider starts one only for a row that elected it, to a wallet).
 * Both decisions are appended together: one read and one append instead of two each.
 */
export class CompleteRowTransferMessage {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly payoutId: string,
    readonly withdrawalPayoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CompleteRowTransferMessage)
export class CompleteRowTransferHandler implements ICommandHandler<CompleteRowTransferMessage> {
  constructor(private readonly split: SplitStream) {}

  async execute({ splitId, distributionId, payoutId, withdrawalPayoutId, context }: CompleteRowTransferMessage): Promise<void> {
    const metadata = this.split.metadata(context);
    await this.split.handleAll(
      splitId,
      [
        { type: 'CompleteRowTransfer', data: { splitId, distributionId, payoutId }, metadata },
        { type: 'StartWithdrawal', data: { splitId, distributionId, payoutId: withdrawalPayoutId }, metadata },
      ],
      context,
    );
  }
}
