import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext, Decided } from '../../platform/event-sourcing/aggregate-repository';
import { CreditInvoiceOverpaymentMessage } from '../../payout-embed';
import { invoiceDecider, InvoiceState } from '../domain/invoice.decider';
import { InvoiceEvent, invoiceStreamId, PaymentMethod } from '../domain/invoice.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * Money for an invoice arrived (from the balance, a paid card order, a matched bank transfer): recorded
 * once per paymentId; what exceeds the rest owed is credited to the enterprise's balance. The collection
 * workflow sends the same command again from the recorded facts, so a crash between the steps loses nothing.
 */
export class RecordInvoicePaymentMessage extends Command<Decided<InvoiceEvent, InvoiceState>> {
  constructor(
    readonly invoiceId: string,
    readonly paymentId: string,
    readonly method: PaymentMethod,
    readonly amountCents: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(RecordInvoicePaymentMessage)
export class RecordInvoicePaymentHandler implements ICommandHandler<RecordInvoicePaymentMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ invoiceId, paymentId, method, amountCents, context }: RecordInvoicePaymentMessage): Promise<Decided<InvoiceEvent, InvoiceState>> {
    const result = await this.aggregates.handle(
      invoiceStreamId(invoiceId),
      invoiceDecider,
      { type: 'RecordPayment', data: { invoiceId, paymentId, method, amountCents }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    for (const event of result.events) {
      if (event.type !== 'invoice.payment_recorded' || event.data.overpaidCents === '0') continue;
      const { enterpriseCompanyId: companyId, currency, overpaidCents } = event.data;
      await this.commands.execute(new CreditInvoiceOverpaymentMessage({ companyId, invoiceId, paymentId, currency, amountCents: overpaidCents }, context));
    }
    return result;
  }
}
