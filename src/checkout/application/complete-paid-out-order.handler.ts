import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { AppLogger } from '../../platform/logging/app-logger';
import { LOGGER } from '../../platform/platform.tokens';
import { PayoutRequested, payoutStreamId } from '../../payouts';
import { orderStreamId } from '../domain/checkout.events';
import { checkoutOrderDecider } from '../domain/checkout-order.decider';

/** The merchant payout of a PAID order completed: the order completes, which is what `checkout.completed` reports. */
export class CompletePaidOutOrderCommand {
  constructor(
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CompletePaidOutOrderCommand)
export class CompletePaidOutOrderHandler implements ICommandHandler<CompletePaidOutOrderCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  async execute({ payoutId, context }: CompletePaidOutOrderCommand): Promise<void> {
    const requested = (await this.events.readStream(payoutStreamId(payoutId))).find((e) => e.type === 'payout.requested');
    const orderId = (requested?.data as PayoutRequested['data'] | undefined)?.orderId;
    if (!orderId) {
      this.logger.warn({ payoutId }, 'merchant payout without an order; nothing to complete');
      return;
    }
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, { type: 'CompleteOrder', data: { payoutId, now: this.clock.now().toISOString() } }, context);
  }
}
