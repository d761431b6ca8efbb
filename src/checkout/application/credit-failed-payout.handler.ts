import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { payoutStreamId, PayoutRequested } from '../../payouts';
import { orderStreamId } from '../domain/checkout.events';
import { checkoutOrderDecider } from '../domain/checkout-order.decider';
import { merchantBalanceDecider } from '../domain/merchant-balance.decider';
import { merchantBalanceStreamId } from '../domain/merchant-balance.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * A PAID order's merchant payout failed (issue 26): what it carried is back in the merchant's checkout balance
 * (the ledger posts checkout_payout_failed from the same event), so the netting stream records it too, once per
 * payout: later refunds draw on it before they leave a debt, and no later order nets money the merchant holds.
 */
export class CreditFailedPayoutMessage {
  constructor(
    readonly orderId: string,
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CreditFailedPayoutMessage)
export class CreditFailedPayoutHandler implements ICommandHandler<CreditFailedPayoutMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orderId, payoutId, context }: CreditFailedPayoutMessage): Promise<void> {
    const { state: order } = await this.aggregates.load(orderStreamId(orderId), checkoutOrderDecider);
    const [requested] = await this.events.readStream(payoutStreamId(payoutId), { maxCount: 1 });
    if (order.status === 'NONE' || requested?.type !== 'payout.requested')
      throw new Error(`Merchant payout ${payoutId} of order ${orderId} failed, but the order or its request is missing`);
    const { amountCents, currency } = requested.data as PayoutRequested['data'];
    const companyId = order.merchantCompanyId;
    await this.aggregates.handle(
      merchantBalanceStreamId(companyId),
      merchantBalanceDecider,
      { type: 'CreditFailedPayout', data: { companyId, orderId, payoutId, currency, amountMinorUnits: amountCents }, metadata: commandMetadata(this.clock, context) },
      context,
    );
  }
}
