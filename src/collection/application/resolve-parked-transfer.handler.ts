import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { bankTransferDecider } from '../domain/bank-transfer.decider';
import { BankTransferNotFoundError, InvoiceNotFoundError } from '../domain/collection.errors';
import { invoiceDecider, invoiceExists } from '../domain/invoice.decider';
import { bankTransferStreamId, invoiceStreamId } from '../domain/invoice.events';
import { BankTransferDoc } from '../projections/invoices-read-model.projection';
import { InvoiceQueries, InvoiceView } from './invoice-queries';
import { RecordInvoicePaymentMessage } from './record-invoice-payment.handler';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

const normalized = (reference: string) => reference.replace(/\s+/g, '').toUpperCase();

/**
 * The enterprise claims a PARKED bank transfer it sent and applies it to one of its invoices (session,
 * finance roles): it proves the transfer is its own by quoting the transfer's reference and amount as its
 * bank sent them (anything else is 404, as for an unknown transfer). The transfer is APPLIED on its stream
 * first, then recorded as the invoice's payment (the collection workflow repeats that step after a crash);
 * what exceeds the rest owed, all of it on a paid invoice, is credited to the enterprise's balance.
 */
export class ApplyParkedTransferMessage extends Command<InvoiceView> {
  constructor(
    readonly enterpriseCompanyId: string,
    readonly invoiceId: string,
    readonly transferId: string,
    readonly reference: string,
    readonly amountCents: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ApplyParkedTransferMessage)
export class ApplyParkedTransferHandler implements ICommandHandler<ApplyParkedTransferMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly commands: CommandBus,
    private readonly queries: InvoiceQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ enterpriseCompanyId, invoiceId, transferId, reference, amountCents, context }: ApplyParkedTransferMessage): Promise<InvoiceView> {
    const { state: invoice } = await this.aggregates.load(invoiceStreamId(invoiceId), invoiceDecider);
    if (!invoiceExists(invoice) || invoice.enterpriseCompanyId !== enterpriseCompanyId) throw new InvoiceNotFoundError();
    const { state: transfer } = await this.aggregates.load(bankTransferStreamId(transferId), bankTransferDecider);
    if (transfer.status === 'none' || normalized(transfer.reference) !== normalized(reference) || transfer.amountCents !== amountCents) throw new BankTransferNotFoundError();
    const resolved = await this.aggregates.handle(
      bankTransferStreamId(transferId),
      bankTransferDecider,
      { type: 'Apply', data: { transferId, invoiceId, invoiceCurrency: invoice.currency, enterpriseCompanyId }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    const applied = await this.commands.execute(new RecordInvoicePaymentMessage(invoiceId, transferId, 'BANK_TRANSFER', transfer.amountCents, context));
    await this.readYourWrites.after(resolved, applied);
    return this.queries.get(invoiceId, enterpriseCompanyId);
  }
}

/**
 * Sandbox: the platform's back office sends a PARKED transfer back to its sender (nobody claimed it).
 * Once; returning it again answers the same; a transfer that is not PARKED is 409.
 */
export class ReturnParkedTransferMessage extends Command<BankTransferDoc> {
  constructor(
    readonly transferId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ReturnParkedTransferMessage)
export class ReturnParkedTransferHandler implements ICommandHandler<ReturnParkedTransferMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: InvoiceQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ transferId, context }: ReturnParkedTransferMessage): Promise<BankTransferDoc> {
    const returned = await this.aggregates.handle(
      bankTransferStreamId(transferId),
      bankTransferDecider,
      { type: 'Return', data: { transferId }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(returned);
    const view = await this.queries.bankTransfer(transferId);
    if (!view) throw new BankTransferNotFoundError();
    return view;
  }
}
