import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, FINANCE, type Principal, Roles, SessionAuth } from '../../identity';
import { ApiData, ApiErrors, ApiPage } from '../../platform/http/openapi';
import { collectionStatusesOf } from '../../split';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';
import { InvoiceQueries } from '../application/invoice-queries';
import { PayInvoiceFromBalanceRequestMessage } from '../application/pay-invoice-from-balance.handler';
import { StartCardPaymentMessage } from '../application/start-card-payment.handler';
import { ApplyParkedTransferMessage } from '../application/resolve-parked-transfer.handler';
import {
  BankTransferCurrencyMismatchError,
  BankTransferNotFoundError,
  BankTransferNotParkedError,
  InvoiceAlreadyPaidError,
  InvoiceNotFoundError,
  InvoicePaymentAmountInvalidError,
  InvoicePaymentExceedsOutstandingError,
} from '../domain/collection.errors';
import { ApplyParkedTransferRequestDto, CardPaymentRequestDto, InvoiceListQueryDto, PayInvoiceRequestDto } from './invoices.request.dto';
import { CardPaymentStartedDto, InvoiceViewDto } from './invoices.response.dto';

const INSUFFICIENT_BALANCE = { status: 422, code: 'PAYOUT_INSUFFICIENT_BALANCE', message: 'The available balance does not cover the payment' };

/** The enterprise's bills (issue 27): list, read, pay from its balance. The SME reads its Split's invoice by id too. */
@ApiTags('invoices')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/invoices')
export class InvoicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: InvoiceQueries,
  ) {}

  @ApiPage(InvoiceViewDto)
  @Get()
  @ApiOperation({
    summary:
      'Invoices billed to the caller company (one per funded Split), soonest due first, 500 a page unless ?limit= says fewer; ?status= narrows to some of OPEN, PARTIALLY_PAID, PAID, OVERDUE',
  })
  list(@Query() query: InvoiceListQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.queries.list(principal.companyId, collectionStatusesOf(query.status), query.page, query.limit);
  }

  @ApiData(InvoiceViewDto)
  @ApiErrors(InvoiceNotFoundError)
  @Get(':id')
  @ApiOperation({ summary: 'One invoice, with its payments and reminders, as the enterprise billed or the SME whose Split it is (404 for anyone else)' })
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.queries.get(id, principal.companyId);
  }

  @ApiData(InvoiceViewDto)
  @ApiErrors(InvoiceNotFoundError, InvoiceAlreadyPaidError, InvoicePaymentExceedsOutstandingError, InvoicePaymentAmountInvalidError, INSUFFICIENT_BALANCE)
  @IdempotentRoute()
  @Post(':id/payments')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Pay (part of) an invoice from the enterprise's Paysplit balance (session): at most what is still owed; 422 PAYOUT_INSUFFICIENT_BALANCE when the balance is short; the same idempotencyKey takes nothing twice",
  })
  pay(@Param('id') id: string, @Body() body: PayInvoiceRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @IdempotencyKey() once: OnceByKey) {
    return once(() =>
      this.commands.execute(new PayInvoiceFromBalanceRequestMessage(principal.companyId, id, body.amountCents, body.idempotencyKey, commandContext(request, principal))),
    );
  }

  @ApiData(InvoiceViewDto)
  @ApiErrors(InvoiceNotFoundError, BankTransferNotFoundError, BankTransferNotParkedError, BankTransferCurrencyMismatchError)
  @IdempotentRoute()
  @Post(':id/parked-transfers')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Apply a PARKED bank transfer the enterprise sent (a reference that named no invoice) to this invoice: quote its transferId, reference and amount as sent (else 404); what exceeds the rest owed is credited to the enterprise's balance; once per transfer",
  })
  applyParkedTransfer(
    @Param('id') id: string,
    @Body() body: ApplyParkedTransferRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(() =>
      this.commands.execute(new ApplyParkedTransferMessage(principal.companyId, id, body.transferId, body.reference, body.amountCents, commandContext(request, principal))),
    );
  }

  @ApiData(CardPaymentStartedDto)
  @ApiErrors(InvoiceNotFoundError, InvoiceAlreadyPaidError, InvoicePaymentExceedsOutstandingError, InvoicePaymentAmountInvalidError)
  @IdempotentRoute()
  @Post(':id/card-payments')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Pay (part of) an invoice by card or wallet: a hosted Checkout page (redirectUrl) for at most what is owed (default: all of it); the bill records the payment once the order is PAID',
  })
  payByCard(
    @Param('id') id: string,
    @Body() body: CardPaymentRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(() =>
      this.commands.execute(new StartCardPaymentMessage(principal.companyId, id, body.amountCents, body.provider ?? 'CARD_PROCESSOR', commandContext(request, principal))),
    );
  }
}
