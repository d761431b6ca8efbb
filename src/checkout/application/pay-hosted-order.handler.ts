import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { CardInput } from '../domain/payment-processor.port';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutSecrets } from './checkout-secrets';
import { ConfirmResult, payOrderWithCard } from './order-payment';

/** The buyer pays a REDIRECT order with the hosted page's card form; the page token is the credential. */
export class PayHostedOrderMessage extends Command<ConfirmResult> {
  constructor(
    readonly orderId: string,
    readonly pageToken: string,
    readonly card: CardInput,
    readonly context: CommandContext,
    /** The email the buyer gave on a subscription order's form (issue 29), recorded with the attempt. */
    readonly customerEmail: string | null = null,
  ) {
    super();
  }
}

@CommandHandler(PayHostedOrderMessage)
export class PayHostedOrderHandler implements ICommandHandler<PayHostedOrderMessage> {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly readYourWrites: ReadYourWrites,
    private readonly secrets: CheckoutSecrets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  execute({ orderId, pageToken, card, context, customerEmail }: PayHostedOrderMessage): Promise<ConfirmResult> {
    return payOrderWithCard(
      { payments: this.payments, readYourWrites: this.readYourWrites, secrets: this.secrets, hostedCheckoutUrl: this.config.hostedCheckoutUrl },
      orderId,
      { pageToken },
      card,
      context,
      customerEmail,
    );
  }
}
