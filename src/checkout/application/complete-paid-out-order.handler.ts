import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { orderStreamId } from '../domain/checkout.events';
import { checkoutOrderDecider } from '../domain/checkout-order.decider';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The merchant payout of a PAID order completed: the order completes, which is what `checkout.completed` reports. */
export class CompletePaidOutOrderMessage {
  constructor(
    readonly orderId: string,
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CompletePaidOutOrderMessage)
export class CompletePaidOutOrderHandler implements ICommandHandler<CompletePaidOutOrderMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orderId, payoutId, context }: CompletePaidOutOrderMessage): Promise<void> {
    await this.aggregates.handle(
      orderStreamId(orderId),
      checkoutOrderDecider,
      { type: 'CompleteOrder', data: { payoutId }, metadata: commandMetadata(this.clock, context) },
      context,
    );
  }
}
