import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { randomBase36 } from '../../platform/ids/ids';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { createOnceDecider } from '../../platform/domain/create-once.decider';
import { Provider } from '../domain/checkout.events';
import { PaymentLinkCreated, paymentLinkStreamId } from '../domain/payment-link.events';

const paymentLinkDecider = createOnceDecider<PaymentLinkCreated>();

export interface PaymentLinkRequest {
  title: string;
  amountMinorUnits: string;
  currency: string;
  provider: Provider;
}

/**
 * Dashboard payment links (docs/checkout.md#payment-links-and-framing): a hosted checkout page per link;
 * each visit's payment is its own order.
 */
export class CreatePaymentLinkMessage extends Command<{ slug: string; url: string }> {
  constructor(
    readonly companyId: string,
    readonly request: PaymentLinkRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreatePaymentLinkMessage)
export class CreatePaymentLinkHandler implements ICommandHandler<CreatePaymentLinkMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ companyId, request, context }: CreatePaymentLinkMessage): Promise<{ slug: string; url: string }> {
    const slug = randomBase36(20);
    const metadata = commandMetadata(this.clock, context);
    const event: PaymentLinkCreated = { type: 'checkout.payment_link.created', data: { slug, companyId, ...request, createdAt: metadata.now } };
    const result = await this.aggregates.handle(paymentLinkStreamId(slug), paymentLinkDecider, { type: 'Create', event, metadata }, context, { expected: 'no_stream' });
    await this.readYourWrites.after(result);
    return { slug, url: `${this.config.hostedCheckoutUrl}/checkout/${slug}` };
  }
}
