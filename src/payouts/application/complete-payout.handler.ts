import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { PayoutStream } from './payout-stream';

/** The rail paid: PROCESSING -> COMPLETED. */
export class CompletePayoutMessage {
  constructor(
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CompletePayoutMessage)
export class CompletePayoutHandler implements ICommandHandler<CompletePayoutMessage> {
  constructor(private readonly payouts: PayoutStream) {}

  async execute({ payoutId, context }: CompletePayoutMessage): Promise<void> {
    await this.payouts.handle(payoutId, { type: 'CompletePayout', data: {}, metadata: this.payouts.metadata(context) }, context);
  }
}
