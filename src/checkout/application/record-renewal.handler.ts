import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { RenewalRef } from '../domain/checkout.events';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** A renewal order was paid: the subscription moves to that period. */
export class RecordRenewalMessage {
  constructor(
    readonly renewal: RenewalRef,
    readonly orderId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RecordRenewalMessage)
export class RecordRenewalHandler implements ICommandHandler<RecordRenewalMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ renewal, orderId, context }: RecordRenewalMessage): Promise<void> {
    const command = { type: 'RecordRenewal', data: { periodIndex: renewal.periodIndex, orderId }, metadata: commandMetadata(this.clock, context) } as const;
    await this.aggregates.handle(subscriptionStreamId(renewal.subscriptionId), subscriptionDecider, command, context);
  }
}
