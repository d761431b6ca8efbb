import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { orderStreamId } from '../domain/checkout.events';
import { checkoutOrderDecider } from '../domain/checkout-order.decider';
import { CheckoutPayments } from './checkout-payments';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * An unpaid order reached its expiry (the decider ignores a paid or already expired one). A payment
 * attempt still in flight is first asked for at the processor by its key: a charge it took is recorded
 * (void, as the order can no longer take it), so no charge is left unrecorded behind an expired order.
 * A charge that lands after this is voided when it is recorded.
 */
export class ExpireOrderMessage {
  constructor(
    readonly orderId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ExpireOrderMessage)
export class ExpireOrderHandler implements ICommandHandler<ExpireOrderMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly payments: CheckoutPayments,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orderId, context }: ExpireOrderMessage): Promise<void> {
    await this.payments.settleAttemptInFlight(orderId, context, { whileUnderWay: 'leave' });
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, { type: 'Expire', data: {}, metadata: commandMetadata(this.clock, context) }, context);
  }
}
