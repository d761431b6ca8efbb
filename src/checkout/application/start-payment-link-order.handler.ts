import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { PaymentLinkView } from '../projections/checkout-read-model.projection';
import { CheckoutSecrets } from './checkout-secrets';
import { CreateCheckoutCommand } from './create-checkout.handler';

/** The order a buyer started and the token of its hosted page (stored nowhere, so handed over here). */
export interface StartedPaymentLinkOrder {
  orderId: string;
  pageToken: string;
}

/** A buyer starts paying on a payment link's page: a new REDIRECT order whose return page is the link's own. */
export class StartPaymentLinkOrderCommand extends Command<StartedPaymentLinkOrder> {
  constructor(
    readonly link: PaymentLinkView,
    readonly embed: boolean,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(StartPaymentLinkOrderCommand)
export class StartPaymentLinkOrderHandler implements ICommandHandler<StartPaymentLinkOrderCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly secrets: CheckoutSecrets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ link, embed, context }: StartPaymentLinkOrderCommand): Promise<StartedPaymentLinkOrder> {
    const returnUrl = `${this.config.hostedCheckoutUrl}/checkout/${link.slug}/complete${embed ? '?embed=true' : ''}`;
    const { order } = await this.commands.execute(
      new CreateCheckoutCommand(
        link.companyId,
        {
          amountMinorUnits: link.amountMinorUnits,
          currency: link.currency,
          provider: link.provider,
          returnUrl,
          checkoutMode: 'REDIRECT',
          externalOrderRef: `payment_link:${link.slug}`,
          idempotencyKey: null,
          subscriptionIntervalUnit: null,
        },
        context,
      ),
    );
    return { orderId: order.orderId, pageToken: this.secrets.pageToken(order) };
  }
}
