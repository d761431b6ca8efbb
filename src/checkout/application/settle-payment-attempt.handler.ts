import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { CheckoutPayments } from './checkout-payments';

/**
 * A buyer's payment attempt went stale: if it is still in flight, the processor is asked by its key and its
 * answer recorded (a charge taken before a crash becomes PAID, or void if the order can no longer take it);
 * with nothing under the key, the attempt is abandoned. An attempt answered meanwhile decides nothing.
 */
export class SettlePaymentAttemptMessage {
  constructor(
    readonly orderId: string,
    readonly attemptId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(SettlePaymentAttemptMessage)
export class SettlePaymentAttemptHandler implements ICommandHandler<SettlePaymentAttemptMessage> {
  constructor(private readonly payments: CheckoutPayments) {}

  async execute({ orderId, attemptId, context }: SettlePaymentAttemptMessage): Promise<void> {
    const { state } = await this.payments.loadOrder(orderId);
    if (state.status === 'NONE' || state.inFlight?.attemptId !== attemptId) return;
    await this.payments.settleAttemptInFlight(orderId, context);
  }
}
