import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { payoutStreamId, RequestPayoutMessage } from '../../payouts';
import { OrderPaid } from '../domain/checkout.events';
import { merchantBalanceDecider, payoutAfterNetting } from '../domain/merchant-balance.decider';
import { merchantBalanceStreamId } from '../domain/merchant-balance.events';
import { merchantPayoutDestination } from '../domain/sandbox-merchant-payouts';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * A PAID order's money goes to the merchant (docs/money.md#checkout-money): first what refunds left owing
 * on the merchant's checkout balance is netted from it (up to the order's amount), then the rest is paid out
 * on the rail (an order that netted all of it gets a payout of 0, so it still completes). A payout that
 * exists already decides nothing: a repeat never nets twice.
 */
export class PayOutOrderMessage {
  constructor(
    readonly paid: OrderPaid['data'],
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(PayOutOrderMessage)
export class PayOutOrderHandler implements ICommandHandler<PayOutOrderMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ paid, context }: PayOutOrderMessage): Promise<void> {
    if ((await this.events.readStream(payoutStreamId(paid.payoutId), { maxCount: 1 })).length > 0) return;
    const stream = merchantBalanceStreamId(paid.merchantCompanyId);
    const { state } = await this.aggregates.handle(
      stream,
      merchantBalanceDecider,
      {
        type: 'NetDebt',
        data: {
          companyId: paid.merchantCompanyId,
          orderId: paid.orderId,
          payoutId: paid.payoutId,
          currency: paid.currency,
          amountMinorUnits: paid.amountMinorUnits,
        },
        metadata: commandMetadata(this.clock, context),
      },
      context,
    );
    await this.commands.execute(
      new RequestPayoutMessage(
        {
          payoutId: paid.payoutId,
          kind: 'merchant',
          orderId: paid.orderId,
          amountCents: payoutAfterNetting(state, paid.orderId, paid.amountMinorUnits).toString(),
          currency: paid.currency,
          destination: merchantPayoutDestination(paid.merchantCompanyId, paid.card),
          attempt: 1,
        },
        context,
      ),
    );
  }
}
