import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { CommandMetadata } from '../../platform/domain/command';
import { deterministicId } from '../../platform/ids/ids';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { OrderCreated, orderStreamId, RenewalRef } from '../domain/checkout.events';
import { OrderCommand, checkoutOrderDecider } from '../domain/checkout-order.decider';
import { ChargeOutcome, ChargeRequest, PAYMENT_PROCESSORS, PaymentProcessors } from '../domain/payment-processor.port';
import { subscriptionDecider, SubscriptionState } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';
import { CheckoutPayments, renewalOrderId } from './checkout-payments';

/** A renewal order is charged once, under one attempt id (the idempotency key), however often its timer fires. */
export const renewalAttemptId = (orderId: string) => deterministicId('pay', orderId, 'off_session');

/**
 * A renewal is due: a new order for the period, charged off-session on the saved card, and marked PAID
 * or FAILED. The subscription follows from those events (the checkout workflow records the renewal or
 * the decline). Intent before effect: the attempt is recorded on the subscription and on the order
 * before the charge, which carries the attempt id as its idempotency key. A repeat (the timer firing
 * again after a crash) finds the attempt in flight and asks the processor by that key before charging:
 * a charge taken before the crash is recorded, never taken again. A charge that lands after the
 * subscription was cancelled is voided.
 */
export class ChargeRenewalMessage {
  constructor(
    readonly renewal: RenewalRef,
    readonly context: CommandContext,
  ) {}
}

type ActiveSubscription = Exclude<SubscriptionState, { status: 'NONE' }>;

@CommandHandler(ChargeRenewalMessage)
export class ChargeRenewalHandler implements ICommandHandler<ChargeRenewalMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly payments: CheckoutPayments,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSORS) private readonly processors: PaymentProcessors,
  ) {}

  async execute({ renewal, context }: ChargeRenewalMessage): Promise<void> {
    const { state: sub } = await this.aggregates.load(subscriptionStreamId(renewal.subscriptionId), subscriptionDecider);
    if (sub.status === 'NONE') return;
    const orderId = renewalOrderId(renewal);
    const attemptId = renewalAttemptId(orderId);
    const { state: existing } = await this.payments.loadOrder(orderId);
    if (existing.status !== 'NONE' && existing.inFlight?.attemptId === attemptId) return this.recover(sub, renewal, orderId, attemptId, context);
    if (sub.status === 'CANCELLED' || renewal.periodIndex <= sub.periodIndex) return;
    // One reading for the order, the intent on both streams and the charge request; the answer is recorded at its own (record).
    const metadata = this.payments.metadata(context);
    const order = existing.status === 'NONE' ? await this.createOrder(sub, renewal, orderId, metadata, context) : existing;
    if (order.status !== 'OPEN') return;
    const started = await this.aggregates.handle(
      subscriptionStreamId(sub.subscriptionId),
      subscriptionDecider,
      {
        type: 'StartRenewalAttempt',
        data: { periodIndex: renewal.periodIndex, attempt: renewal.attempt, orderId, attemptId },
        metadata,
      },
      context,
    );
    // Cancelled, or the period paid, before the intent was recorded: nothing is charged.
    if (started.state.status !== 'ACTIVE' || started.state.renewalAttemptId !== attemptId) return;
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, { type: 'StartPaymentAttempt', data: { attemptId, method: 'SAVED_CARD' }, metadata }, context);
    const outcome = await this.processors.for(sub.provider).chargeSavedCard(this.request(sub, orderId, attemptId, metadata.now), sub.card);
    await this.record(renewal, orderId, attemptId, outcome, context);
  }

  /** The attempt was recorded but not its outcome: the processor is asked by the key; only when it has nothing is the card charged (under that same key). */
  private async recover(sub: ActiveSubscription, renewal: RenewalRef, orderId: string, attemptId: string, context: CommandContext): Promise<void> {
    const processor = this.processors.for(sub.provider);
    const known = await processor.retrieveCharge(attemptId);
    const outcome = known?.outcome ?? (await processor.chargeSavedCard(this.request(sub, orderId, attemptId, this.clock.now().toISOString()), sub.card));
    await this.record(renewal, orderId, attemptId, outcome, context);
  }

  /**
   * A captured renewal charge is accepted by the subscription first, so a cancel and the charge are ordered
   * by the store: cancelled before -> the charge is voided; after -> the period was paid.
   */
  private async record(renewal: RenewalRef, orderId: string, attemptId: string, outcome: ChargeOutcome, context: CommandContext): Promise<void> {
    if (outcome.kind !== 'succeeded') {
      const declined: ChargeOutcome =
        outcome.kind === 'declined' ? outcome : { kind: 'declined', card: null, declineCode: 'authentication_required', reason: 'The card needs the buyer to authenticate' };
      await this.payments.recordOutcome(orderId, attemptId, declined, context);
      return;
    }
    const accepted = await this.aggregates.handle(
      subscriptionStreamId(renewal.subscriptionId),
      subscriptionDecider,
      { type: 'AcceptRenewalCharge', data: { periodIndex: renewal.periodIndex, orderId }, metadata: this.payments.metadata(context) },
      context,
    );
    const cancelledFirst = accepted.state.status === 'CANCELLED' && accepted.state.periodIndex < renewal.periodIndex;
    await this.payments.recordOutcome(orderId, attemptId, outcome, context, cancelledFirst ? 'SUBSCRIPTION_CANCELLED' : undefined);
  }

  private async createOrder(sub: ActiveSubscription, renewal: RenewalRef, orderId: string, metadata: CommandMetadata, context: CommandContext) {
    const founding = await this.foundingOrder(sub.foundingOrderId);
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
      },
      metadata,
    };
    return (await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, create, context)).state;
  }

  private request(sub: ActiveSubscription, orderId: string, attemptId: string, now: string): ChargeRequest {
    return { attemptId, orderId, amountMinorUnits: sub.amountMinorUnits, currency: sub.currency, now };
  }

  private async foundingOrder(orderId: string): Promise<OrderCreated['data']> {
    const created = (await this.events.readStream(orderStreamId(orderId))).find((e) => e.type === 'checkout.order.created');
    if (!created) throw new Error(`founding order ${orderId} not found`);
    return created.data as OrderCreated['data'];
  }
}
