import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { newId } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { bankTransferDecider } from '../domain/bank-transfer.decider';
import { InvoicePaymentAmountInvalidError } from '../domain/collection.errors';
import { isCentsString, parseCents } from '../../platform/money/money';
import { BankTransferReceived, bankTransferStreamId } from '../domain/invoice.events';
import { BankTransferDoc } from '../projections/invoices-read-model.projection';
import { InvoiceQueries } from './invoice-queries';
import { RecordInvoicePaymentMessage } from './record-invoice-payment.handler';

/**
 * Sandbox: an incoming bank transfer. Its reference names an invoice (in the invoice's currency): it is
 * recorded MATCHED and applied as that invoice's payment (an overpayment is credited to the enterprise's
 * balance); otherwise it is recorded PARKED for review. Recorded before anything else, so it is never lost.
 */
export class ReceiveBankTransferMessage extends Command<BankTransferDoc> {
  constructor(
    readonly reference: string,
    readonly amountCents: string,
    readonly currency: string | undefined,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ReceiveBankTransferMessage)
export class ReceiveBankTransferHandler implements ICommandHandler<ReceiveBankTransferMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly commands: CommandBus,
    private readonly queries: InvoiceQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ reference, amountCents, currency, context }: ReceiveBankTransferMessage): Promise<BankTransferDoc> {
    if (!isCentsString(amountCents) || parseCents(amountCents) <= 0n) throw new InvoicePaymentAmountInvalidError(amountCents);
    const invoice = await this.queries.byReference(reference);
    // Stamped once, after the lookup and right before the append: the append read the Clock here before the
    // transfer's command carried metadata, so its occurredAt (the ledger's postedAt) is the reading it was.
    const metadata = commandMetadata(this.clock, context);
    const transferId = newId('btr', Date.parse(metadata.now));
    const parkedReason = !invoice ? 'unknown reference' : currency !== undefined && currency !== invoice.currency ? `currency ${currency}, invoice in ${invoice.currency}` : null;
    const matched = invoice !== null && parkedReason === null;
    const event: BankTransferReceived = {
      type: 'bank_transfer.received',
      data: {
        transferId,
        reference,
        currency: currency ?? invoice?.currency ?? 'USD',
        amountCents,
        status: matched ? 'MATCHED' : 'PARKED',
        invoiceId: matched ? invoice.id : null,
        enterpriseCompanyId: matched ? invoice.enterpriseCompanyId : null,
        parkedReason,
        receivedAt: metadata.now,
      },
    };
    const received = await this.aggregates.create(bankTransferStreamId(transferId), bankTransferDecider, { type: 'Create', event, metadata }, context);
    const applied = matched ? await this.commands.execute(new RecordInvoicePaymentMessage(invoice.id, transferId, 'BANK_TRANSFER', amountCents, context)) : null;
    await this.readYourWrites.after(received, ...(applied ? [applied] : []));
    const { transferId: id, receivedAt, status, invoiceId } = event.data;
    return { id, reference, currency: event.data.currency, amountCents, status, invoiceId, parkedReason, receivedAt, resolvedAt: null };
  }
}
