import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { invoiceDecider, invoiceExists } from '../domain/invoice.decider';
import { invoiceStreamId, Reminder } from '../domain/invoice.events';
import { InvoiceEmails } from './invoice-emails';

/**
 * A reminder to the AP contact, recorded once on the invoice and then mailed. A paid invoice gets none. The
 * mail goes whenever the reminder is on record (its id is fixed), so a crash after the record still sends it.
 */
export class SendInvoiceReminderMessage {
  constructor(
    readonly invoiceId: string,
    readonly reminder: Reminder,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(SendInvoiceReminderMessage)
export class SendInvoiceReminderHandler implements ICommandHandler<SendInvoiceReminderMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly emails: InvoiceEmails,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ invoiceId, reminder, context }: SendInvoiceReminderMessage): Promise<void> {
    const metadata = commandMetadata(this.clock, context);
    const result = await this.aggregates.handle(invoiceStreamId(invoiceId), invoiceDecider, { type: 'SendReminder', data: { invoiceId, reminder }, metadata }, context);
    const sent = result.events.find((event) => event.type === 'invoice.reminder_sent');
    if (invoiceExists(result.state) && result.state.reminders.has(reminder)) await this.emails.send(result.state, reminder, sent ? metadata.now : result.state.dueAt);
  }
}
