import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { invoiceDecider } from '../domain/invoice.decider';
import { invoiceStreamId } from '../domain/invoice.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The due date came: an invoice still owed becomes OVERDUE (once; a paid one decides nothing). */
export class MarkInvoiceOverdueMessage {
  constructor(
    readonly invoiceId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(MarkInvoiceOverdueMessage)
export class MarkInvoiceOverdueHandler implements ICommandHandler<MarkInvoiceOverdueMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ invoiceId, context }: MarkInvoiceOverdueMessage): Promise<void> {
    await this.aggregates.handle(invoiceStreamId(invoiceId), invoiceDecider, { type: 'MarkOverdue', data: { invoiceId }, metadata: commandMetadata(this.clock, context) }, context);
  }
}
