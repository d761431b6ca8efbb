import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { OrderRefundSucceeded } from '../domain/checkout.events';
import { merchantBalanceDecider } from '../domain/merchant-balance.decider';
import { merchantBalanceStreamId } from '../domain/merchant-balance.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** A refund succeeded: the merchant's checkout balance owes it (once per refund) until later payouts net it. */
export class DebitMerchantRefundMessage {
  constructor(
    readonly refund: OrderRefundSucceeded['data'],
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(DebitMerchantRefundMessage)
export class DebitMerchantRefundHandler implements ICommandHandler<DebitMerchantRefundMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ refund, context }: DebitMerchantRefundMessage): Promise<void> {
    const { merchantCompanyId: companyId, orderId, refundId, currency, amountMinorUnits } = refund;
    await this.aggregates.handle(
      merchantBalanceStreamId(companyId),
      merchantBalanceDecider,
      { type: 'DebitRefund', data: { companyId, orderId, refundId, currency, amountMinorUnits }, metadata: commandMetadata(this.clock, context) },
      context,
    );
  }
}
