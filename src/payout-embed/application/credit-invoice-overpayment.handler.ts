import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** Issue 27: what a payment brought beyond an invoice's rest becomes the enterprise's available balance, once per payment. */
export class CreditInvoiceOverpaymentMessage extends Command<void> {
  constructor(
    readonly data: { companyId: string; invoiceId: string; paymentId: string; currency: string; amountCents: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreditInvoiceOverpaymentMessage)
export class CreditInvoiceOverpaymentHandler implements ICommandHandler<CreditInvoiceOverpaymentMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ data, context }: CreditInvoiceOverpaymentMessage): Promise<void> {
    await this.aggregates.handle(
      balanceStreamId(data.companyId),
      companyBalanceDecider,
      { type: 'CreditInvoiceOverpayment', data: { ...data }, metadata: commandMetadata(this.clock, context) },
      context,
      { retries: BALANCE_RETRIES },
    );
  }
}
