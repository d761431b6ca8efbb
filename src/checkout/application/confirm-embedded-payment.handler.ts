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

/** The embedded component pays an EMBEDDED order with a card; the clientSecret is the credential. */
export class ConfirmEmbeddedPaymentMessage extends Command<ConfirmResult> {
  constructor(
    readonly orderId: string,
    readonly clientSecret: string,
    readonly card: CardInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ConfirmEmbeddedPaymentMessage)
export class ConfirmEmbeddedPaymentHandler implements ICommandHandler<ConfirmEmbeddedPaymentMessage> {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly readYourWrites: ReadYourWrites,
    private readonly secrets: CheckoutSecrets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  execute({ orderId, clientSecret, card, context }: ConfirmEmbeddedPaymentMessage): Promise<ConfirmResult> {
    return payOrderWithCard(
      { payments: this.payments, readYourWrites: this.readYourWrites, secrets: this.secrets, hostedCheckoutUrl: this.config.hostedCheckoutUrl },
      orderId,
      { clientSecret },
      card,
      context,
    );
  }
}
