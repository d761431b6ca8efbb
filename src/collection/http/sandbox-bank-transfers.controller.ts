import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, Public } from '../../identity';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { ReturnParkedTransferMessage } from '../application/resolve-parked-transfer.handler';
import { BankTransferNotFoundError, BankTransferNotParkedError } from '../domain/collection.errors';
import { InvoiceQueries } from '../application/invoice-queries';
import { ReceiveBankTransferMessage } from '../application/receive-bank-transfer.handler';
import { BankTransferListQueryDto, BankTransferRequestDto } from './invoices.request.dto';
import { BankTransferDto } from './invoices.response.dto';

/** Sandbox-only (mounted by the sandbox module): the bank side of invoice collection (issue 27). */
@ApiTags('sandbox')
@Public()
@Controller('api/sandbox/bank-transfers')
export class SandboxBankTransfersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: InvoiceQueries,
  ) {}

  @ApiData(BankTransferDto)
  @Post()
  @ApiOperation({
    summary:
      "Play an incoming bank transfer: a reference naming an invoice pays it (an overpayment is credited to the enterprise's balance); any other is PARKED for review, never lost",
  })
  receive(@Body() body: BankTransferRequestDto, @Req() request: FastifyRequest) {
    return this.commands.execute(new ReceiveBankTransferMessage(body.reference, body.amountCents, body.currency, commandContext(request, null)));
  }

  @ApiData(BankTransferDto)
  @ApiErrors(BankTransferNotFoundError, BankTransferNotParkedError)
  @Post(':id/return')
  @HttpCode(200)
  @ApiOperation({ summary: "Play the platform's back office: send a PARKED transfer nobody claimed back to its sender (RETURNED); once" })
  returnTransfer(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.commands.execute(new ReturnParkedTransferMessage(id, commandContext(request, null)));
  }

  @ApiData(BankTransferDto, { isArray: true })
  @Get()
  @ApiOperation({ summary: 'Incoming bank transfers, newest first; ?status=PARKED lists those waiting for review' })
  list(@Query() query: BankTransferListQueryDto) {
    return this.queries.bankTransfers(query.status);
  }
}
