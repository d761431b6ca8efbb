import { Body, Controller, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData } from '../../platform/http/openapi';
import { TopUpResultDto } from './payout-embed.response.dto';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, FINANCE, type Principal, Roles, SessionAuth } from '../../identity';
import { TopUpBalanceMessage } from '../application/top-up-balance.handler';
import { TopUpBalanceRequestDto } from './payout-embed.request.dto';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';

/** Sandbox-only (mounted by the sandbox module): money into the caller's company balance. */
@ApiTags('sandbox')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/sandbox/balance')
export class SandboxBalanceController {
  constructor(private readonly commands: CommandBus) {}

  @ApiData(TopUpResultDto)
  @IdempotentRoute()
  @Post('top-up')
  @Roles(...FINANCE)
  @ApiOperation({ summary: "Add money to the caller's company balance (session); read it back with GET /api/commerce/balance" })
  topUp(@Body() body: TopUpBalanceRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @IdempotencyKey() once: OnceByKey) {
    return once(() => this.commands.execute(new TopUpBalanceMessage(principal.companyId, body.currency, body.amountCents, commandContext(request, principal))));
  }
}
