import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { requestFingerprint } from '../../platform/domain/idempotency';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { deterministicId } from '../../platform/ids/ids';
import { Written } from '../../platform/projections/read-your-writes';
import { orderStreamId } from '../domain/checkout.events';
import { CheckoutOrderNotFoundError } from '../domain/checkout.errors';
import { checkoutOrderDecider } from '../domain/checkout-order.decider';
import { PAYMENT_PROCESSORS, PaymentProcessors } from '../domain/payment-processor.port';

/** What a merchant asks to refund (docs/checkout.md#refunds). */
export interface RefundRequestBody {
  amountMinorUnits: string;
  reason: string | null;
  idempotencyKey: string;
}

/** A refund's id: the same order and idempotencyKey always name the same refund. */
export const refundIdOf = (orderId: string, idempotencyKey: string) => deterministicId('rf', orderId, 'refund', idempotencyKey);

/**
 * Refunds of PAID orders (issue 26), intent before effect as charges are (docs/money.md#charge-intent): the
 * refund is recorded pending on the order first (the decider refuses more than is still refundable), the
 * processor that took the payment is called with the refund id as its idempotency key, and its answer is
 * recorded against the refund. Every step may be repeated: a recovery asks the processor again by the same key.
 */
@Injectable()
export class CheckoutRefunds {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSORS) private readonly processors: PaymentProcessors,
  ) {}

  /** Records the refund (404 for an order of another merchant), then settles it at the processor. */
  async refund(orderId: string, companyId: string, body: RefundRequestBody, context: CommandContext): Promise<{ refundId: string; written: Written[] }> {
    const { state } = await this.aggregates.load(orderStreamId(orderId), checkoutOrderDecider);
    if (state.status === 'NONE' || state.merchantCompanyId !== companyId) throw new CheckoutOrderNotFoundError();
    const refundId = refundIdOf(orderId, body.idempotencyKey);
    const requested = await this.aggregates.handle(
      orderStreamId(orderId),
      checkoutOrderDecider,
      {
        type: 'RequestRefund',
        data: {
          refundId,
          amountMinorUnits: body.amountMinorUnits,
          reason: body.reason,
          idempotencyKey: body.idempotencyKey,
          requestHash: requestFingerprint({ amountMinorUnits: body.amountMinorUnits, reason: body.reason }),
        },
        metadata: commandMetadata(this.clock, context),
      },
      context,
    );
    const settled = await this.settle(orderId, refundId, context);
    return { refundId, written: settled ? [requested, settled] : [requested] };
  }

  /** A pending refund goes to the processor (again, by its key: the same answer, never a second refund) and the answer is recorded; otherwise nothing. */
  async settle(orderId: string, refundId: string, context: CommandContext): Promise<Written | null> {
    const { state } = await this.aggregates.load(orderStreamId(orderId), checkoutOrderDecider);
    if (state.status === 'NONE' || state.refunds?.[refundId]?.status !== 'pending') return null;
    const refund = state.refunds[refundId]!;
    const outcome = await this.processors.for(state.provider).refund({
      refundId,
      orderId,
      chargeAttemptId: state.paidAttemptId,
      card: state.paidCard ?? null,
      amountMinorUnits: refund.amountMinorUnits,
      currency: state.currency,
      now: this.clock.now().toISOString(),
    });
    // Recorded at the Clock's reading once the processor answered.
    return this.aggregates.handle(
      orderStreamId(orderId),
      checkoutOrderDecider,
      { type: 'RecordRefundOutcome', data: { refundId, outcome }, metadata: commandMetadata(this.clock, context) },
      context,
    );
  }
}
