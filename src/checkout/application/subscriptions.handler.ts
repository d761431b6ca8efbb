import { Injectable } from '@nestjs/common';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';
import { CheckoutQueries, subscriptionRecordOf } from './checkout-queries';

/** Buyer self-service (spec 4.3): possession of the subscriptionId is the credential. */
@Injectable()
export class SubscriptionsHandler {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: CheckoutQueries,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async get(subscriptionId: string) {
    return subscriptionRecordOf(await this.queries.subscription(subscriptionId));
  }

  /** Idempotent: an already cancelled subscription answers with its current state. */
  async cancel(subscriptionId: string, context: CommandContext, now: string) {
    await this.queries.subscription(subscriptionId);
    const result = await this.aggregates.handle(subscriptionStreamId(subscriptionId), subscriptionDecider, { type: 'CancelSubscription', data: { reason: 'BUYER_REQUEST', now } }, context);
    await this.readYourWrites.after(result);
    return subscriptionRecordOf(await this.queries.subscription(subscriptionId));
  }
}
