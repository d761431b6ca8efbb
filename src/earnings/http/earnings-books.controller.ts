import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import {
  balanceTransactionBatches,
  BalanceTransactionDto,
  balanceTransactions,
  BalanceTransactionsQueryDto,
  LEDGER_LINE_CSV,
  STATEMENT_CSV,
  statementCsvRows,
  StatementDto,
  statementPeriod,
  statements,
  StatementsQueryDto,
  transactionFilters,
} from '../../ledger';
import { prefersCsv } from '../../platform/http/content-negotiation';
import { sendCsv, sendCsvBatches } from '../../platform/http/csv';
import { ApiData } from '../../platform/http/openapi';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { contractorAccountsOf } from '../application/contractor-accounts';

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** A contractor's own books (issue 28): the lines on its contractor accounts (cpp_, sv_) and its withdrawals in transit (usr_). */
@ApiTags('earnings')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/me')
export class EarningsBooksController {
  constructor(@Inject(DOCUMENT_READER) private readonly documents: DocumentReader) {}

  private async owners(userId: string): Promise<string[]> {
    return [...(await contractorAccountsOf(this.documents, userId)).contractors, userId];
  }

  @ApiData(BalanceTransactionDto, { isArray: true })
  @Get('balance-transactions')
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({
    summary:
      "Every ledger line on the caller's own contractor accounts (contractor_balance, contractor_in_transit, contractor_wallet), newest first, with the balance after it; same filters, cursor and CSV as /api/commerce/balance-transactions",
  })
  async list(
    @Query() query: BalanceTransactionsQueryDto,
    @CurrentPrincipal() principal: SessionPrincipal,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const filters = transactionFilters(query);
    const owners = await this.owners(principal.userId);
    if (prefersCsv(request)) return sendCsvBatches(reply, 'earnings-transactions.csv', LEDGER_LINE_CSV, balanceTransactionBatches(this.documents, owners, filters));
    void reply.send({ data: await balanceTransactions(this.documents, owners, { ...filters, limit: query.limit ?? 20 }) });
  }

  @ApiData(StatementDto, { isArray: true })
  @Get('statements')
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({ summary: "Statements of the caller's own contractor accounts over [from, to), as /api/commerce/statements" })
  async statements(@Query() query: StatementsQueryDto, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const found = await statements(this.documents, await this.owners(principal.userId), statementPeriod(query));
    if (prefersCsv(request)) return sendCsv(reply, 'earnings-statements.csv', STATEMENT_CSV, statementCsvRows(found));
    void reply.send({ data: found });
  }
}
