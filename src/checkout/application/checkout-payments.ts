import { Inject, Injectable } from '@nestjs/common';
import { Written } from '../../platform/projections/read-your-writes';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { CommandMetadata } from '../../platform/domain/command';
import { deterministicId, newId } from '../../platform/ids/ids';
import { ChargeVoidReason, OrderPaid, orderStreamId, PaymentMethod, RenewalRef } from '../domain/checkout.events';
import { CardDeclinedError, CheckoutChargeVoidedError, CheckoutOrderNotFoundError, CheckoutPaymentInProgressError } from '../domain/checkout.errors';
import { checkoutOrderDecider, OrderState, staleAttempt } from '../domain/checkout-order.decider';
import { ChargeOutcome, ChargeRecord, ChargeRequest, PAYMENT_PROCESSORS, PaymentProcessors } from '../domain/payment-processor.port';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';

export const merchantPayoutId = (orderId: string) => deterministicId('po', orderId, 'merchant');
/** Only for orders created before the subscription id was recorded at creation (it is guessable from the order id). */
export const foundedSubscriptionId = (orderId: string) => deterministicId('sub', orderId);
export const renewalOrderId = (r: RenewalRef) => deterministicId('ord', r.subscriptionId, 'renewal', String(r.periodIndex), String(r.attempt));

export interface PaymentResult {
  status: 'PAID' | 'REQUIRES_ACTION';
  /** The order and the subscription it may have started, for read-your-writes. */
  written: Written[];
}

/** What the order recorded for a processor's answer to one attempt. */
export interface RecordedOutcome {
  status: 'PAID' | 'REQUIRES_ACTION' | 'DECLINED' | 'VOIDED';
  written: Written[];
}

/**
 * The buyer's payment steps, shared by the pay handlers and the start-subscription command. Every
 * step is idempotent: deterministic ids (payout, subscription) and deciders that decide nothing on a repeat.
 */
@Injectable()
export class CheckoutPayments {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSORS) private readonly processors: PaymentProcessors,
  ) {}

  now(): string {
    return this.clock.now().toISOString();
  }

  /** An order or subscription command's metadata: the Clock's time and the caller (commandMetadata, the one place it is made). */
  metadata(context: CommandContext): CommandMetadata {
    return commandMetadata(this.clock, context);
  }

  loadOrder(orderId: string) {
    return this.aggregates.load(orderStreamId(orderId), checkoutOrderDecider);
  }

  processorFor(state: Exclude<OrderState, { status: 'NONE' }>) {
    return this.processors.for(state.provider);
  }

  /**
   * Intent before effect (docs/money.md#charge-intent): an attempt is recorded on the order first (the
   * store lets one in flight per order), the processor is called with the attempt id as its idempotency
   * key, and its answer is recorded against that attempt. An attempt still in flight is first settled by
   * asking the processor by its key (recovery after a crash); when that attempt paid the order, its
   * outcome is the answer and nothing is charged again.
   */
  async attemptBuyerPayment(
    orderId: string,
    method: PaymentMethod,
    call: (request: ChargeRequest) => Promise<ChargeOutcome>,
    context: CommandContext,
    customerEmail: string | null = null,
  ): Promise<PaymentResult> {
    const recovered = await this.settleAttemptInFlight(orderId, context);
    if (recovered?.status === 'PAID') return { status: 'PAID', written: recovered.written };
    const metadata = this.metadata(context);
    const attemptId = newId('pay', Date.parse(metadata.now));
    const { state } = await this.aggregates.handle(
      orderStreamId(orderId),
      checkoutOrderDecider,
      { type: 'StartPaymentAttempt', data: { attemptId, method, customerEmail }, metadata },
      context,
    );
    if (state.status === 'NONE') throw new CheckoutOrderNotFoundError();
    const outcome = await call({ attemptId, orderId, amountMinorUnits: state.amountMinorUnits, currency: state.currency, now: metadata.now });
    return this.recordBuyerOutcome(orderId, attemptId, outcome, context);
  }

  /**
   * Recovery: the attempt in flight, if any, is asked for at the processor by its key. An answer there is
   * recorded (a charge taken before a crash is recorded, never taken again). No answer: the attempt is
   * still under way (409 CHECKOUT_PAYMENT_IN_PROGRESS, or nothing with `whileUnderWay: 'leave'`, when the
   * caller goes on either way: an expiring order), or, once stale, abandoned.
   */
  async settleAttemptInFlight(
    orderId: string,
    context: CommandContext,
    options: { whileUnderWay: 'refuse' | 'leave' } = { whileUnderWay: 'refuse' },
  ): Promise<RecordedOutcome | null> {
    const { state } = await this.loadOrder(orderId);
    if (state.status === 'NONE' || !state.inFlight) return null;
    const { attemptId } = state.inFlight;
    const record = await this.processorFor(state).retrieveCharge(attemptId);
    if (record) return this.recordOutcome(orderId, attemptId, record.outcome, context, voidedAlready(record));
    if (options.whileUnderWay === 'leave') return null;
    const metadata = this.metadata(context);
    if (!staleAttempt(state, metadata.now)) throw new CheckoutPaymentInProgressError();
    await this.aggregates.handle(orderStreamId(orderId), checkoutOrderDecider, { type: 'AbandonPaymentAttempt', data: { attemptId }, metadata }, context);
    return null;
  }

  /**
   * Records what the processor answered for a buyer's (on-session) payment: PAID (and the subscription
   * it founds), REQUIRES_ACTION, or a decline, which is recorded and then thrown as CARD_DECLINED. A charge
   * the order could no longer take is recorded void and thrown as CHECKOUT_CHARGE_VOIDED.
   */
  async recordBuyerOutcome(orderId: string, attemptId: string, outcome: ChargeOutcome, context: CommandContext): Promise<PaymentResult> {
    const recorded = await this.recordOutcome(orderId, attemptId, outcome, context);
    switch (recorded.status) {
      case 'PAID':
      case 'REQUIRES_ACTION':
        return { status: recorded.status, written: recorded.written };
      case 'DECLINED':
        if (outcome.kind !== 'declined') throw new Error(`declined without a decline for ${attemptId}`);
        throw new CardDeclinedError(outcome.declineCode, outcome.reason);
      case 'VOIDED': {
        const { state } = await this.loadOrder(orderId);
        throw new CheckoutChargeVoidedError(state.status === 'NONE' ? 'NONE' : state.status);
      }
    }
  }

  /**
   * The processor's answer to one attempt, recorded against it once: a repeat (a recovery racing the request
   * that made the call) records nothing and reports what was recorded. `voidReason`: the caller's reason the
   * order must not take a charge (a renewal of a subscription cancelled meanwhile).
   */
  async recordOutcome(orderId: string, attemptId: string, outcome: ChargeOutcome, context: CommandContext, voidReason?: ChargeVoidReason): Promise<RecordedOutcome> {
    const stream = orderStreamId(orderId);
    const metadata = this.metadata(context);
    switch (outcome.kind) {
      case 'succeeded': {
        const { state } = await this.loadOrder(orderId);
        const subscriptionId = state.status !== 'NONE' && state.subscriptionIntervalUnit && !state.renewal ? (state.subscriptionId ?? foundedSubscriptionId(orderId)) : null;
        const paid = await this.aggregates.handle(
          stream,
          checkoutOrderDecider,
          {
            type: 'MarkPaid',
            data: { card: outcome.card, payoutId: merchantPayoutId(orderId), subscriptionId, attemptId, ...(voidReason ? { voidReason } : {}) },
            metadata,
          },
          context,
        );
        if (paid.state.status === 'NONE' || paid.state.paidAttemptId !== attemptId) return { status: 'VOIDED', written: [paid] };
        const event = paid.events[0];
        const subscription = event?.type === 'checkout.order.paid' ? await this.startSubscription(event.data, context) : null;
        return { status: 'PAID', written: subscription ? [paid, subscription] : [paid] };
      }
      case 'requires_action': {
        const result = await this.aggregates.handle(stream, checkoutOrderDecider, { type: 'RequireAction', data: { card: outcome.card, attemptId }, metadata }, context);
        return { status: 'REQUIRES_ACTION', written: [result] };
      }
      case 'declined': {
        const { state } = await this.loadOrder(orderId);
        const command =
          state.status !== 'NONE' && state.renewal
            ? ({ type: 'FailRenewal', data: { declineCode: outcome.declineCode, reason: outcome.reason, attemptId }, metadata } as const)
            : ({
                type: 'RecordDecline',
                data: { card: outcome.card, declineCode: outcome.declineCode, reason: outcome.reason, attemptId },
                metadata,
              } as const);
        const result = await this.aggregates.handle(stream, checkoutOrderDecider, command, context);
        return { status: 'DECLINED', written: [result] };
      }
    }
  }

  /** A founding order paid with an opt-in: the subscription starts, anchored at the payment (the workflow then schedules its first renewal). */
  async startSubscription(paid: OrderPaid['data'], context: CommandContext): Promise<Written | null> {
    if (!paid.subscriptionId || !paid.subscriptionIntervalUnit || paid.renewal || !paid.card) return null;
    const result = await this.aggregates.handle(
      subscriptionStreamId(paid.subscriptionId),
      subscriptionDecider,
      {
        type: 'StartSubscription',
        data: {
          subscriptionId: paid.subscriptionId,
          merchantCompanyId: paid.merchantCompanyId,
          foundingOrderId: paid.orderId,
          intervalUnit: paid.subscriptionIntervalUnit,
          amountMinorUnits: paid.amountMinorUnits,
          currency: paid.currency,
          provider: paid.provider,
          card: paid.card,
          anchorAt: paid.paidAt,
          ...(paid.customerEmail ? { customerEmail: paid.customerEmail } : {}),
        },
        metadata: this.metadata(context),
      },
      context,
    );
    return result;
  }
}

/** A charge the processor already voided was recorded void when it was voided: recording it again can only void it. */
function voidedAlready(record: ChargeRecord): ChargeVoidReason | undefined {
  return record.status === 'voided' ? 'ATTEMPT_ABANDONED' : undefined;
}
