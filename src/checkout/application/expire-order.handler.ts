import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { orderStreamId } from '../domain/checkout.events';
import { checkoutOrderDecider } from '../domain/checkout-order.decider';

/** An unpaid order reached its expiry (the decider ignores a paid or already expired one). */
export class ExpireOrderCommand {
  constructor(
    readonly orderId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ExpireOrderCommand)
export class ExpireOrderHandler implements ICommandHandler<ExpireOrderCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orderId, context }: ExpireOrderCommand): Promise<void> {
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, { type: 'Expire', data: { now: this.clock.now().toISOString() } }, context);
  }
}
