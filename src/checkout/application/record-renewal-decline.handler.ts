import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { RenewalRef } from '../domain/checkout.events';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** A renewal order failed: the subscription counts the decline and sets the retry, or cancels at the third. */
export class RecordRenewalDeclineMessage {
  constructor(
    readonly renewal: RenewalRef,
    readonly orderId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RecordRenewalDeclineMessage)
export class RecordRenewalDeclineHandler implements ICommandHandler<RecordRenewalDeclineMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ renewal, orderId, context }: RecordRenewalDeclineMessage): Promise<void> {
    const { periodIndex, attempt } = renewal;
    const command = { type: 'RecordRenewalDecline', data: { periodIndex, attempt, orderId }, metadata: commandMetadata(this.clock, context) } as const;
    await this.aggregates.handle(subscriptionStreamId(renewal.subscriptionId), subscriptionDecider, command, context);
  }
}
