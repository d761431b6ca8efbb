import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { OrderCreated, orderStreamId, RenewalRef } from '../domain/checkout.events';
import { OrderCommand, checkoutOrderDecider } from '../domain/checkout-order.decider';
import { PAYMENT_PROCESSORS, PaymentProcessors } from '../domain/payment-processor.port';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';
import { merchantPayoutId, renewalOrderId } from './checkout-payments';

/**
 * A renewal is due: a new order for the period, charged off-session on the saved card, and marked PAID
 * or FAILED. The subscription follows from those events (the checkout workflow records the renewal or
 * the decline). A repeat finds the order already charged and changes nothing.
 */
export class ChargeRenewalCommand {
  constructor(
    readonly renewal: RenewalRef,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ChargeRenewalCommand)
export class ChargeRenewalHandler implements ICommandHandler<ChargeRenewalCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSORS) private readonly processors: PaymentProcessors,
  ) {}

  async execute({ renewal, context }: ChargeRenewalCommand): Promise<void> {
    const { state: sub } = await this.aggregates.load(subscriptionStreamId(renewal.subscriptionId), subscriptionDecider);
    if (sub.status === 'NONE' || sub.status === 'CANCELLED' || renewal.periodIndex <= sub.periodIndex) return;
    const founding = await this.foundingOrder(sub.foundingOrderId);
    const orderId = renewalOrderId(renewal);
    const create: OrderCommand = {
      type: 'CreateOrder',
      data: {
        orderId,
        merchantCompanyId: sub.merchantCompanyId,
        amountMinorUnits: sub.amountMinorUnits,
        currency: sub.currency,
        provider: sub.provider,
        checkoutMode: founding.checkoutMode,
        returnUrl: founding.returnUrl,
        externalOrderRef: null,
        idempotencyKey: null,
        subscriptionIntervalUnit: sub.intervalUnit,
        renewal,
        // Charged off-session: no buyer page, no client secret.
        pageTokenHash: null,
        clientSecretHash: null,
        now: this.now(),
      },
    };
    const { state: order } = await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, create, context);
    if (order.status !== 'OPEN') return;
    const outcome = await this.processors.for(sub.provider).chargeSavedCard({ orderId, amountMinorUnits: sub.amountMinorUnits, currency: sub.currency, now: this.now() }, sub.card);
    const now = this.now();
    const recorded: OrderCommand =
      outcome.kind === 'succeeded'
        ? { type: 'MarkPaid', data: { card: sub.card, payoutId: merchantPayoutId(orderId), subscriptionId: sub.subscriptionId, now } }
        : {
            type: 'FailRenewal',
            data:
              outcome.kind === 'declined'
                ? { declineCode: outcome.declineCode, reason: outcome.reason, now }
                : { declineCode: 'authentication_required', reason: 'The card needs the buyer to authenticate', now },
          };
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, recorded, context);
  }

  private async foundingOrder(orderId: string): Promise<OrderCreated['data']> {
    const created = (await this.events.readStream(orderStreamId(orderId))).find((e) => e.type === 'checkout.order.created');
    if (!created) throw new Error(`founding order ${orderId} not found`);
    return created.data as OrderCreated['data'];
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
