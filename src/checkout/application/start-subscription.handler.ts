import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { OrderPaid } from '../domain/checkout.events';
import { CheckoutPayments } from './checkout-payments';

/** A founding order with an opt-in was paid: its subscription starts (the paying request may have done it already). */
export class StartSubscriptionMessage {
  constructor(
    readonly paid: OrderPaid['data'],
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(StartSubscriptionMessage)
export class StartSubscriptionHandler implements ICommandHandler<StartSubscriptionMessage> {
  constructor(private readonly payments: CheckoutPayments) {}

  async execute({ paid, context }: StartSubscriptionMessage): Promise<void> {
    await this.payments.startSubscription(paid, context);
  }
}
