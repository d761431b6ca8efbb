import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { formatCents } from '../../platform/money/money';
import { netTermsMaturity, splitDecider, splitExists, splitStreamId } from '../../split';
import { invoiceDecider, invoiceExists } from '../domain/invoice.decider';
import { invoiceIdOf, invoiceStreamId, paymentReferenceOf } from '../domain/invoice.events';
import { InvoiceEmails } from './invoice-emails';

/** A Split funded: the enterprise is billed total + enterprise fee, due at funding + its net terms, and its AP contact is told. */
export class IssueInvoiceMessage {
  constructor(
    readonly splitId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(IssueInvoiceMessage)
export class IssueInvoiceHandler implements ICommandHandler<IssueInvoiceMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly emails: InvoiceEmails,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ splitId, context }: IssueInvoiceMessage): Promise<void> {
    const { state: split } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    if (!splitExists(split) || split.fundedAt === null) return;
    const invoiceId = invoiceIdOf(splitId);
    const result = await this.aggregates.handle(
      invoiceStreamId(invoiceId),
      invoiceDecider,
      {
        type: 'IssueInvoice',
        data: {
          invoiceId,
          splitId,
          smeCompanyId: split.smeCompanyId,
          enterpriseCompanyId: split.enterpriseCompanyId,
          apContactBusinessProfileId: split.apContactBusinessProfileId ?? '',
          currency: split.currency,
          amountCents: formatCents(split.totalAmountCents + split.enterpriseFeeAmountCents),
          paymentReference: paymentReferenceOf(invoiceId),
          issuedAt: split.fundedAt,
          dueAt: netTermsMaturity(split.fundedAt, split.enterpriseNetTermsDays),
        },
        // issuedAt is the Split's funding; the command is decided now, where the append read the Clock before it carried metadata.
        metadata: commandMetadata(this.clock, context),
      },
      context,
    );
    if (invoiceExists(result.state)) await this.emails.send(result.state, 'ISSUED', result.state.issuedAt || this.clock.now().toISOString());
  }
}
