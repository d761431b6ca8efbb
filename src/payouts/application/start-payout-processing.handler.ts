import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { PayoutStream } from './payout-stream';

/** The rail took the payout: PENDING -> PROCESSING. */
export class StartPayoutProcessingMessage {
  constructor(
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(StartPayoutProcessingMessage)
export class StartPayoutProcessingHandler implements ICommandHandler<StartPayoutProcessingMessage> {
  constructor(private readonly payouts: PayoutStream) {}

  async execute({ payoutId, context }: StartPayoutProcessingMessage): Promise<void> {
    await this.payouts.handle(payoutId, { type: 'StartProcessing', data: {}, metadata: this.payouts.metadata(context) }, context);
  }
}
