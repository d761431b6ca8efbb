import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { CheckoutRefunds } from './checkout-refunds';

/**
 * A refund is still pending REFUND_CHECK_AFTER_MS after it was requested (its process died before or while
 * calling the processor): the processor is asked again under the same refund id, which refunds at most once,
 * and its answer is recorded. A refund answered meanwhile decides nothing.
 */
export class SettleRefundMessage {
  constructor(
    readonly orderId: string,
    readonly refundId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(SettleRefundMessage)
export class SettleRefundHandler implements ICommandHandler<SettleRefundMessage> {
  constructor(private readonly refunds: CheckoutRefunds) {}

  async execute({ orderId, refundId, context }: SettleRefundMessage): Promise<void> {
    await this.refunds.settle(orderId, refundId, context);
  }
}
