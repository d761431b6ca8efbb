import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { PAYMENT_LINK_ORDER_REF, PaymentLinkView } from '../projections/checkout-read-model.projection';
import { CheckoutSecrets } from './checkout-secrets';
import { CreateCheckoutMessage } from './create-checkout.handler';
import { PaymentLinkOrderLimits } from './payment-link-order-limits';

/** The order a buyer started and the token of its hosted page (stored nowhere, so handed over here). */
export interface StartedPaymentLinkOrder {
  orderId: string;
  pageToken: string;
}

/**
 * A buyer starts paying on a payment link's page: a new REDIRECT order whose return page is the link's
 * own, within the link's and the address's allowances (PaymentLinkOrderLimits: 429 beyond). Unpaid, it
 * expires like any order (24 h) and then leaves the merchant's default order list.
 */
export class StartPaymentLinkOrderMessage extends Command<StartedPaymentLinkOrder> {
  constructor(
    readonly link: PaymentLinkView,
    readonly embed: boolean,
    /** The buyer's address as the HTTP server sees it (TRUST_PROXY), for the per-address limit. */
    readonly clientAddress: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(StartPaymentLinkOrderMessage)
export class StartPaymentLinkOrderHandler implements ICommandHandler<StartPaymentLinkOrderMessage> {
  constructor(
    private readonly commands: CommandBus,
    private readonly secrets: CheckoutSecrets,
    private readonly limits: PaymentLinkOrderLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ link, embed, clientAddress, context }: StartPaymentLinkOrderMessage): Promise<StartedPaymentLinkOrder> {
    await this.limits.count(link.slug, clientAddress);
    const returnUrl = `${this.config.hostedCheckoutUrl}/checkout/${link.slug}/complete${embed ? '?embed=true' : ''}`;
    const { order } = await this.commands.execute(
      new CreateCheckoutMessage(
        link.companyId,
        {
          amountMinorUnits: link.amountMinorUnits,
          currency: link.currency,
          provider: link.provider,
          returnUrl,
          checkoutMode: 'REDIRECT',
          externalOrderRef: `${PAYMENT_LINK_ORDER_REF}${link.slug}`,
          idempotencyKey: null,
          subscriptionIntervalUnit: null,
        },
        context,
      ),
    );
    return { orderId: order.orderId, pageToken: this.secrets.pageToken(order) };
  }
}
