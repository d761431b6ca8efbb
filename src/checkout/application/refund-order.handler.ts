import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CheckoutRefunds, RefundRequestBody } from './checkout-refunds';

/** A merchant refunds (part of) a PAID order (POST .../orders/:orderId/refunds): answered with the refund's id once its outcome is readable. */
export class RefundOrderMessage {
  constructor(
    readonly orderId: string,
    readonly companyId: string,
    readonly body: RefundRequestBody,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RefundOrderMessage)
export class RefundOrderHandler implements ICommandHandler<RefundOrderMessage, string> {
  constructor(
    private readonly refunds: CheckoutRefunds,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ orderId, companyId, body, context }: RefundOrderMessage): Promise<string> {
    const { refundId, written } = await this.refunds.refund(orderId, companyId, body, context);
    await this.readYourWrites.after(...written);
    return refundId;
  }
}
