import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { PayoutRequest } from '../domain/payout.events';
import { PayoutStream } from './payout-stream';

export type { PayoutRequest };

/** Asks the rail to move money (leg A, a row's transfer or withdrawal, a merchant's order); a repeat of the same payout id decides nothing. */
export class RequestPayoutMessage {
  constructor(
    readonly request: PayoutRequest,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RequestPayoutMessage)
export class RequestPayoutHandler implements ICommandHandler<RequestPayoutMessage> {
  constructor(private readonly payouts: PayoutStream) {}

  async execute({ request, context }: RequestPayoutMessage): Promise<void> {
    await this.payouts.handle(request.payoutId, { type: 'RequestPayout', data: request, metadata: this.payouts.metadata(context) }, context);
  }
}
