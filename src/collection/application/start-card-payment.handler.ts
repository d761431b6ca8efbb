import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { isCentsString, parseCents } from '../../platform/money/money';
import { CreateCheckoutMessage } from '../../checkout';
import { InvoiceAlreadyPaidError, InvoiceNotFoundError, InvoicePaymentAmountInvalidError, InvoicePaymentExceedsOutstandingError } from '../domain/collection.errors';
import { invoiceDecider, invoiceExists, outstandingOf } from '../domain/invoice.decider';
import { COLLECTIONS_MERCHANT, invoiceStreamId } from '../domain/invoice.events';
import { InvoiceQueries } from './invoice-queries';

export interface CardPaymentStarted {
  invoiceId: string;
  orderId: string;
  amountCents: string;
  /** The hosted page where the enterprise pays by card or wallet. */
  redirectUrl: string;
}

/**
 * The enterprise pays (part of) a bill by card or wallet: a Checkout order of the platform's collections
 * account (COLLECTIONS_MERCHANT) for at most what is owed, referencing the invoice. Its hosted page is
 * Checkout's; once the order is PAID the collection workflow records the payment on the invoice.
 */
export class StartCardPaymentMessage extends Command<CardPaymentStarted> {
  constructor(
    readonly enterpriseCompanyId: string,
    readonly invoiceId: string,
    readonly amountCents: string | undefined,
    readonly provider: 'CARD_PROCESSOR' | 'WALLET_PROCESSOR',
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(StartCardPaymentMessage)
export class StartCardPaymentHandler implements ICommandHandler<StartCardPaymentMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly commands: CommandBus,
    private readonly queries: InvoiceQueries,
  ) {}

  async execute({ enterpriseCompanyId, invoiceId, amountCents, provider, context }: StartCardPaymentMessage): Promise<CardPaymentStarted> {
    const { state: invoice } = await this.aggregates.load(invoiceStreamId(invoiceId), invoiceDecider);
    if (!invoiceExists(invoice) || invoice.enterpriseCompanyId !== enterpriseCompanyId) throw new InvoiceNotFoundError();
    const outstanding = outstandingOf(invoice);
    if (outstanding === 0n) throw new InvoiceAlreadyPaidError(invoiceId);
    const amount = amountCents ?? outstanding.toString();
    if (!isCentsString(amount) || parseCents(amount) <= 0n) throw new InvoicePaymentAmountInvalidError(amount);
    if (parseCents(amount) > outstanding) throw new InvoicePaymentExceedsOutstandingError(outstanding.toString(), amount);
    const created = await this.commands.execute(
      new CreateCheckoutMessage(
        COLLECTIONS_MERCHANT,
        {
          amountMinorUnits: amount,
          currency: invoice.currency,
          provider,
          returnUrl: this.queries.payUrlOf(invoiceId),
          checkoutMode: 'REDIRECT',
          externalOrderRef: invoiceId,
          idempotencyKey: null,
          subscriptionIntervalUnit: null,
        },
        context,
      ),
    );
    return { invoiceId, orderId: created.response.orderId, amountCents: amount, redirectUrl: created.response.redirectUrl! };
  }
}
