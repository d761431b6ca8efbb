import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { PayoutStream } from './payout-stream';

/** The rail refused: PENDING or PROCESSING -> FAILED, with the reason. */
export class FailPayoutMessage {
  constructor(
    readonly payoutId: string,
    readonly reason: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(FailPayoutMessage)
export class FailPayoutHandler implements ICommandHandler<FailPayoutMessage> {
  constructor(private readonly payouts: PayoutStream) {}

  async execute({ payoutId, reason, context }: FailPayoutMessage): Promise<void> {
    await this.payouts.handle(payoutId, { type: 'FailPayout', data: { reason }, metadata: this.payouts.metadata(context) }, context);
  }
}
