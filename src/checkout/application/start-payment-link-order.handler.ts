import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { PaymentLinkView } from '../projections/checkout-read-model.projection';
import { CreateCheckoutCommand, CreatedOrder } from './create-checkout.handler';

/** A buyer starts paying on a payment link's page: a new REDIRECT order whose return page is the link's own. */
export class StartPaymentLinkOrderCommand extends Command<CreatedOrder> {
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ link, embed, context }: StartPaymentLinkOrderCommand): Promise<CreatedOrder> {
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
    return order;
  }
}
