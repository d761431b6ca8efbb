import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { PayoutStream } from './payout-stream';

/** The rail paid: PROCESSING -> COMPLETED. */
export class CompletePayoutCommand {
  constructor(
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CompletePayoutCommand)
export class CompletePayoutHandler implements ICommandHandler<CompletePayoutCommand> {
  constructor(private readonly payouts: PayoutStream) {}

  async execute({ payoutId, context }: CompletePayoutCommand): Promise<void> {
    await this.payouts.handle(payoutId, { type: 'CompletePayout', data: {}, metadata: this.payouts.metadata(context) }, context);
  }
}
