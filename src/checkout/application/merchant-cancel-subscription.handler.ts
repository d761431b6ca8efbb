import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';
import { MerchantListsQuery, MerchantSubscriptionView } from './merchant-lists.query';

/**
 * The merchant stops one of its subscriptions (issue 29 item 6; docs/checkout.md#subscriptions): no renewal is charged
 * after it, what was paid stays paid. The decider's CancelSubscription with MERCHANT_REQUEST; idempotent like the
 * buyer's cancel (a cancelled subscription answers its current state). Another merchant's subscription is 404.
 */
export class MerchantCancelSubscriptionMessage extends Command<MerchantSubscriptionView> {
  constructor(
    readonly subscriptionId: string,
    readonly merchantCompanyId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(MerchantCancelSubscriptionMessage)
export class MerchantCancelSubscriptionHandler implements ICommandHandler<MerchantCancelSubscriptionMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly lists: MerchantListsQuery,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ subscriptionId, merchantCompanyId, context }: MerchantCancelSubscriptionMessage): Promise<MerchantSubscriptionView> {
    await this.lists.subscription(merchantCompanyId, subscriptionId);
    const result = await this.aggregates.handle(
      subscriptionStreamId(subscriptionId),
      subscriptionDecider,
      { type: 'CancelSubscription', data: { reason: 'MERCHANT_REQUEST' }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    return this.lists.subscription(merchantCompanyId, subscriptionId);
  }
}
