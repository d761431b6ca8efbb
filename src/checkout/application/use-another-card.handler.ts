import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { orderStreamId } from '../domain/checkout.events';
import { CheckoutOrderNotFoundError } from '../domain/checkout.errors';
import { checkoutOrderDecider } from '../domain/checkout-order.decider';
import { CheckoutPayments } from './checkout-payments';
import { secretMatches } from './checkout-secrets';

/**
 * The buyer chose "use another card" on the authentication step: the order leaves REQUIRES_ACTION and is
 * OPEN again, so the card form (hosted page or embedded frame) takes a new card. An OPEN order decides nothing.
 */
export class UseAnotherCardMessage {
  constructor(
    readonly orderId: string,
    readonly pageToken: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(UseAnotherCardMessage)
export class UseAnotherCardHandler implements ICommandHandler<UseAnotherCardMessage> {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ orderId, pageToken, context }: UseAnotherCardMessage): Promise<void> {
    const { state } = await this.payments.loadOrder(orderId);
    if (state.status === 'NONE' || !secretMatches(pageToken, state.pageTokenHash)) throw new CheckoutOrderNotFoundError();
    const result = await this.aggregates.handle(
      orderStreamId(orderId),
      checkoutOrderDecider,
      { type: 'AbandonAuthentication', data: {}, metadata: this.payments.metadata(context) },
      context,
    );
    await this.readYourWrites.after(result);
  }
}
