import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AnyApiKeyOrSessionAuth, CurrentPrincipal, type Principal } from '../../identity';
import { prefersCsv } from '../../platform/http/content-negotiation';
import { sendCsv, sendCsvBatches } from '../../platform/http/csv';
import { assertWindow, isoInstant } from '../../platform/http/iso-instant';
import { ApiData } from '../../platform/http/openapi';
import { BooksQuery } from '../application/books.query.service';
import { LEDGER_LINE_CSV, STATEMENT_CSV, statementCsvRows } from '../application/books.csv';
import { BalanceTransactionDto, BalanceTransactionsQueryDto, StatementDto, StatementsQueryDto } from './books.dto';

/** A company's books (issue 28, docs/money.md#reconciling): the lines on its accounts and statements over a period. */
@ApiTags('balance')
@ApiBearerAuth()
@Controller('api/commerce')
export class BooksController {
  constructor(private readonly books: BooksQuery) {}

  @ApiData(BalanceTransactionDto, { isArray: true })
  @Get('balance-transactions')
  @AnyApiKeyOrSessionAuth()
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({
    summary:
      "Every ledger line on the caller company's accounts (company_balance, payout_reserve, sme_margin_hold, sme_fee_reserve, enterprise_receivable, ...), newest first, with the account's balance after it; page with ?cursor=<last id>. Accept: text/csv exports every matching row (API key of any scope, or session)",
  })
  async list(@Query() query: BalanceTransactionsQueryDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const filters = transactionFilters(query);
    if (prefersCsv(request)) return sendCsvBatches(reply, 'balance-transactions.csv', LEDGER_LINE_CSV, this.books.allTransactions([principal.companyId], filters));
    void reply.send({ data: await this.books.transactions([principal.companyId], { ...filters, limit: query.limit ?? 20 }) });
  }

  @ApiData(StatementDto, { isArray: true })
  @Get('statements')
  @AnyApiKeyOrSessionAuth()
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({
    summary:
      "Statements of the caller company's accounts over [from, to): per account and currency, openingBalanceCents, every line, closingBalanceCents (= opening + net change) and totals per type. Accept: text/csv for the same as rows",
  })
  async statements(@Query() query: StatementsQueryDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const period = statementPeriod(query);
    const statements = await this.books.statements([principal.companyId], period);
    if (prefersCsv(request)) return sendCsv(reply, 'statements.csv', STATEMENT_CSV, statementCsvRows(statements));
    void reply.send({ data: statements });
  }
}

export function transactionFilters(query: BalanceTransactionsQueryDto) {
  const from = isoInstant(query.from, 'from');
  const to = isoInstant(query.to, 'to');
  assertWindow(from, to);
  return { currency: query.currency, type: query.type, account: query.account, source: query.source, from, to, cursor: query.cursor };
}

export function statementPeriod(query: StatementsQueryDto) {
  const from = isoInstant(query.from, 'from');
  const to = isoInstant(query.to, 'to');
  assertWindow(from, to);
  return { account: query.account, currency: query.currency, from, to };
}
