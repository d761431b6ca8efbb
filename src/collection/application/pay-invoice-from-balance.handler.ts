import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';
import { deterministicId } from '../../platform/ids/ids';
import { isCentsString, parseCents } from '../../platform/money/money';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { PayInvoiceFromBalanceMessage } from '../../payout-embed';
import { InvoiceAlreadyPaidError, InvoiceNotFoundError, InvoicePaymentAmountInvalidError, InvoicePaymentExceedsOutstandingError } from '../domain/collection.errors';
import { invoiceDecider, invoiceExists, outstandingOf } from '../domain/invoice.decider';
import { invoiceStreamId } from '../domain/invoice.events';
import { InvoiceQueries, InvoiceView } from './invoice-queries';
import { RecordInvoicePaymentMessage } from './record-invoice-payment.handler';

/**
 * The enterprise pays (part of) its invoice from its Paysplit balance (session): at most what is still
 * owed; taken from the balance stream first (422 PAYOUT_INSUFFICIENT_BALANCE when short, nothing written),
 * then recorded on the invoice. The payment id derives from the idempotencyKey: a retry takes nothing twice;
 * the key with another amount is 409 IDEMPOTENCY_KEY_REUSED. A crash between the two appends is completed
 * by the `invoice_balance_payment` workflow (it records every debit on its invoice; when the invoice was
 * meanwhile paid, the debit is an overpayment and goes back to the balance).
 */
export class PayInvoiceFromBalanceRequestMessage extends Command<InvoiceView> {
  constructor(
    readonly enterpriseCompanyId: string,
    readonly invoiceId: string,
    readonly amountCents: string,
    readonly idempotencyKey: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(PayInvoiceFromBalanceRequestMessage)
export class PayInvoiceFromBalanceRequestHandler implements ICommandHandler<PayInvoiceFromBalanceRequestMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly commands: CommandBus,
    private readonly queries: InvoiceQueries,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ enterpriseCompanyId, invoiceId, amountCents, idempotencyKey, context }: PayInvoiceFromBalanceRequestMessage): Promise<InvoiceView> {
    const { state: invoice } = await this.aggregates.load(invoiceStreamId(invoiceId), invoiceDecider);
    if (!invoiceExists(invoice) || invoice.enterpriseCompanyId !== enterpriseCompanyId) throw new InvoiceNotFoundError();
    if (!isCentsString(amountCents) || parseCents(amountCents) <= 0n) throw new InvoicePaymentAmountInvalidError(amountCents);
    const paymentId = deterministicId('ipm', enterpriseCompanyId, invoiceId, idempotencyKey);
    const recorded = invoice.payments.get(paymentId);
    if (recorded) {
      if (recorded.amountCents !== parseCents(amountCents)) throw new IdempotencyKeyReusedError();
      await this.readYourWrites.afterStream(invoiceStreamId(invoiceId));
      return this.queries.get(invoiceId, enterpriseCompanyId);
    }
    const outstanding = outstandingOf(invoice);
    if (outstanding === 0n) throw new InvoiceAlreadyPaidError(invoiceId);
    if (parseCents(amountCents) > outstanding) throw new InvoicePaymentExceedsOutstandingError(outstanding.toString(), amountCents);
    await this.commands.execute(new PayInvoiceFromBalanceMessage({ companyId: enterpriseCompanyId, invoiceId, paymentId, currency: invoice.currency, amountCents }, context));
    const result = await this.commands.execute(new RecordInvoicePaymentMessage(invoiceId, paymentId, 'BALANCE', amountCents, context));
    await this.readYourWrites.after(result);
    return this.queries.get(invoiceId, enterpriseCompanyId);
  }
}
