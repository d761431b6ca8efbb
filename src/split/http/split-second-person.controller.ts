import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, FINANCE, type Principal, Roles, SessionAuth } from '../../identity';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { PayOutDistributionNowMessage } from '../application/pay-out-distribution-now.handler';
import { SettleMarginMessage } from '../application/settle-margin.handler';
import { SplitNothingToConfirmError, SplitSelfApprovalError } from '../domain/split-second-person.errors';
import { DistributionAlreadyPaidOutError, DistributionNotFoundError, SplitMarginNotSettleableError, SplitNotFundedError } from '../domain/split-settlement.errors';
import { SplitNotFoundError } from '../domain/split.errors';
import { SME_FEE_NOT_COVERED } from './split.openapi';
import { SplitViewDto } from './split.response.dto';

/**
 * Issue 30, the SME-side two-person rule: a pay-out-now or an instant margin release above the SME's own
 * threshold (its default approval policy asking for two) waits in `awaitingSecondPerson`; a second finance or
 * owner member confirms it here, from the dashboard, and the money moves then (docs/api.md#two-person-rule-on-the-sme-side).
 */
@ApiTags('splits')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce')
export class SplitSecondPersonController {
  constructor(private readonly commands: CommandBus) {}

  @ApiData(SplitViewDto)
  @ApiErrors(
    SplitNotFoundError,
    DistributionNotFoundError,
    SplitNotFundedError,
    DistributionAlreadyPaidOutError,
    SplitNothingToConfirmError,
    SplitSelfApprovalError,
    SME_FEE_NOT_COVERED,
  )
  @IdempotentRoute()
  @Post('integration/splits/:id/distributions/:distributionId/payout/confirm')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Issue 30: a second member confirms a pay-out-now that waits for one (above the SME's two-person threshold); the row's transfer starts as for an immediate pay-out-now. The member who asked is refused (403 SELF_APPROVAL); nothing waiting is 409 SPLIT_NOTHING_TO_CONFIRM",
  })
  confirmPayOutNow(
    @Param('id') id: string,
    @Param('distributionId') distributionId: string,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(() => this.commands.execute(new PayOutDistributionNowMessage(principal.companyId, id, distributionId, commandContext(request, principal), true)));
  }

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError, SplitMarginNotSettleableError, SplitNothingToConfirmError, SplitSelfApprovalError)
  @IdempotentRoute()
  @Post('splits/:id/settle-margin/confirm')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Issue 30: a second member confirms an instant margin release that waits for one (above the SME's two-person threshold); the margin is released (or instant release elected) as by settle-margin. The member who asked is refused (403 SELF_APPROVAL); nothing waiting is 409 SPLIT_NOTHING_TO_CONFIRM",
  })
  confirmSettleMargin(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @IdempotencyKey() once: OnceByKey) {
    return once(() => this.commands.execute(new SettleMarginMessage(principal.companyId, id, commandContext(request, principal), true)));
  }
}
