import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';
import { CheckoutQueries, subscriptionRecordOf } from './checkout-queries';

/**
 * Buyer self-service (docs/checkout.md#subscriptions): possession of the subscriptionId is the credential. Idempotent: an
 * already cancelled subscription answers with its current state.
 */
export class CancelSubscriptionMessage extends Command<ReturnType<typeof subscriptionRecordOf>> {
  constructor(
    readonly subscriptionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CancelSubscriptionMessage)
export class CancelSubscriptionHandler implements ICommandHandler<CancelSubscriptionMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: CheckoutQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ subscriptionId, context }: CancelSubscriptionMessage) {
    const metadata = commandMetadata(this.clock, context);
    await this.queries.subscription(subscriptionId);
    const result = await this.aggregates.handle(
      subscriptionStreamId(subscriptionId),
      subscriptionDecider,
      { type: 'CancelSubscription', data: { reason: 'BUYER_REQUEST' }, metadata },
      context,
    );
    await this.readYourWrites.after(result);
    return subscriptionRecordOf(await this.queries.subscription(subscriptionId));
  }
}
