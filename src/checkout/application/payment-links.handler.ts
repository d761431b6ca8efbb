import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { randomBase36 } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { createOnceDecider } from '../../platform/domain/create-once.decider';
import { Provider } from '../domain/checkout.events';
import { PaymentLinkCreated, paymentLinkStreamId } from '../domain/payment-link.events';
import { PaymentLinkView } from '../projections/checkout-read-model.projection';
import { CreateCheckoutHandler } from './create-checkout.handler';

const paymentLinkDecider = createOnceDecider<PaymentLinkCreated>();

/** Dashboard payment links (DESIGN 7): a hosted checkout page per link; each visit's payment is its own order. */
@Injectable()
export class PaymentLinksHandler {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly createCheckout: CreateCheckoutHandler,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(companyId: string, request: { title: string; amountMinorUnits: string; currency: string; provider: Provider }, context: CommandContext) {
    const slug = randomBase36(20);
    const event: PaymentLinkCreated = { type: 'checkout.payment_link.created', data: { slug, companyId, ...request, createdAt: this.clock.now().toISOString() } };
    const result = await this.aggregates.handle(paymentLinkStreamId(slug), paymentLinkDecider, { type: 'Create', event }, context, { expected: 'no_stream' });
    await this.readYourWrites.after(result);
    return { slug, url: `${this.config.hostedCheckoutUrl}/checkout/${slug}` };
  }

  /** A buyer starts paying on the link's page: a new REDIRECT order whose return page is the link's own. */
  async startOrder(link: PaymentLinkView, embed: boolean, context: CommandContext) {
    const returnUrl = `${this.config.hostedCheckoutUrl}/checkout/${link.slug}/complete${embed ? '?embed=true' : ''}`;
    const { order } = await this.createCheckout.execute(
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
    );
    return order;
  }
}
