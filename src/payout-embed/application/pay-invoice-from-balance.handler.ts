import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * Issue 27: the enterprise pays an invoice from its balance. Decided on its balance stream before the
 * invoice records the payment (422 PAYOUT_INSUFFICIENT_BALANCE, and nothing written, when it is short);
 * once per paymentId, so a retry after a crash takes nothing twice.
 */
export class PayInvoiceFromBalanceMessage extends Command<void> {
  constructor(
    readonly data: { companyId: string; invoiceId: string; paymentId: string; currency: string; amountCents: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(PayInvoiceFromBalanceMessage)
export class PayInvoiceFromBalanceHandler implements ICommandHandler<PayInvoiceFromBalanceMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ data, context }: PayInvoiceFromBalanceMessage): Promise<void> {
    await this.aggregates.handle(
      balanceStreamId(data.companyId),
      companyBalanceDecider,
      { type: 'PayInvoice', data: { ...data }, metadata: commandMetadata(this.clock, context) },
      context,
      {
        retries: BALANCE_RETRIES,
      },
    );
  }
}
