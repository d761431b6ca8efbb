import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CheckoutOrderNotFoundError } from '../domain/checkout.errors';
import { assertPayable, pendingAuthentication } from '../domain/checkout-order.decider';
import { CheckoutPayments } from './checkout-payments';
import { ConfirmResult } from './order-payment';
import { secretMatches } from './checkout-secrets';

/** The buyer passed the authentication step (the sandbox confirm page) of a REQUIRES_ACTION card payment. */
export class CompleteAuthenticationMessage extends Command<ConfirmResult> {
  constructor(
    readonly orderId: string,
    readonly pageToken: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CompleteAuthenticationMessage)
export class CompleteAuthenticationHandler implements ICommandHandler<CompleteAuthenticationMessage> {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ orderId, pageToken, context }: CompleteAuthenticationMessage): Promise<ConfirmResult> {
    const { state } = await this.payments.loadOrder(orderId);
    if (state.status === 'NONE' || !secretMatches(pageToken, state.pageTokenHash)) throw new CheckoutOrderNotFoundError();
    const card = pendingAuthentication(state);
    assertPayable(state, this.payments.now());
    const processor = this.payments.processorFor(state);
    const result = await this.payments.attemptBuyerPayment(orderId, 'AUTHENTICATION', (request) => processor.completeAuthentication(request, card), context);
    await this.readYourWrites.after(...result.written);
    return { status: 'PAID' };
  }
}
