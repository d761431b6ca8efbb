import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { BalanceAsOfQueryDto } from '../../ledger';
import { isoInstant } from '../../platform/http/iso-instant';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, EmailNotVerifiedError, FINANCE, type Principal, Roles, SessionAuth } from '../../identity';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';
import { EarningsQuery } from '../application/earnings.query';
import { RequestWithdrawalMessage } from '../application/request-withdrawal.handler';
import { WithdrawalInsufficientBalanceError, WithdrawalWalletNotReadyError } from '../domain/earnings.errors';
import { WithdrawRequestDto } from './earnings.request.dto';
import { EarningsDto, UpcomingEarningDto, WithdrawalDto } from './earnings.response.dto';

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** A contractor's own money (session of the person, e.g. signed in by magic link). */
@ApiTags('earnings')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/me')
export class EarningsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly query: EarningsQuery,
  ) {}

  @ApiData(EarningsDto)
  @Get('earnings')
  @ApiOperation({
    summary:
      "The caller's contractor earnings: service balance per currency, transfers received, withdrawals, wallet on file; ?asOf=<ISO time> answers them as they stood then, the balances from the ledger",
  })
  earnings(@CurrentPrincipal() principal: SessionPrincipal, @Query() query: BalanceAsOfQueryDto) {
    return this.query.earnings(principal.userId, isoInstant(query.asOf, 'asOf'));
  }

  @ApiData(UpcomingEarningDto, { isArray: true })
  @Get('upcoming-earnings')
  @ApiOperation({ summary: "Issue 29: the caller's rows in approved Splits not transferred yet, with their payday (soonest first)" })
  upcoming(@CurrentPrincipal() principal: SessionPrincipal) {
    return this.query.upcoming(principal.userId);
  }

  @ApiData(WithdrawalDto)
  @ApiErrors(WithdrawalInsufficientBalanceError, WithdrawalWalletNotReadyError, EmailNotVerifiedError)
  @IdempotentRoute()
  @Post('withdrawals')
  @Roles(...FINANCE)
  @ApiOperation({
    summary:
      'Move service balance to the wallet on file (201, posted in the ledger); 422 WITHDRAWAL_INSUFFICIENT_BALANCE, WITHDRAWAL_WALLET_NOT_READY, or EMAIL_NOT_VERIFIED for an account whose address is not confirmed',
  })
  withdraw(@Body() body: WithdrawRequestDto, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest, @IdempotencyKey() once: OnceByKey) {
    return once(() => this.commands.execute(new RequestWithdrawalMessage(principal.userId, body.amountCents, body.currency, commandContext(request, principal))));
  }
}
