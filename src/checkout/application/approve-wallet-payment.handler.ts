import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CheckoutOrderNotFoundError } from '../domain/checkout.errors';
import { assertPayable } from '../domain/checkout-order.decider';
import { CheckoutPayments } from './checkout-payments';
import { ConfirmResult } from './order-payment';
import { secretMatches } from './checkout-secrets';

/**
 * The buyer approves a WALLET_PROCESSOR payment on the hosted page. (Cancelling writes nothing: the
 * buyer goes back to the merchant with the order still OPEN.)
 */
export class ApproveWalletPaymentMessage extends Command<ConfirmResult> {
  constructor(
    readonly orderId: string,
    readonly pageToken: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ApproveWalletPaymentMessage)
export class ApproveWalletPaymentHandler implements ICommandHandler<ApproveWalletPaymentMessage> {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ orderId, pageToken, context }: ApproveWalletPaymentMessage): Promise<ConfirmResult> {
    const { state } = await this.payments.loadOrder(orderId);
    if (state.status === 'NONE' || !secretMatches(pageToken, state.pageTokenHash)) throw new CheckoutOrderNotFoundError();
    assertPayable(state, this.payments.now());
    const processor = this.payments.processorFor(state);
    const result = await this.payments.attemptBuyerPayment(orderId, 'WALLET', (request) => processor.approveWallet(request), context);
    await this.readYourWrites.after(...result.written);
    return { status: 'PAID' };
  }
}
