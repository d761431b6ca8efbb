import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { PageQueryDto, pageOf } from '../../platform/http/pagination';
import { SplitDecisionHandler } from '../application/split-decision.handler';
import { SplitQueries } from '../application/split-queries';
import { SplitPayoutsHandler } from '../application/split-payouts.handler';
import { RejectSplitRequestDto } from './split.request.dto';

/** Session calls on Splits: the enterprise's incoming list and approval, and the SME's margin settlement. */
@ApiTags('splits')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/splits')
export class EnterpriseSplitsController {
  constructor(
    private readonly decisions: SplitDecisionHandler,
    private readonly queries: SplitQueries,
    private readonly payouts: SplitPayoutsHandler,
  ) {}

  @Post(':id/settle-margin')
  @HttpCode(200)
  @ApiOperation({ summary: "The SME's own call: release a HELD margin now, or elect instant release while PENDING (409 otherwise; session only)" })
  settleMargin(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.payouts.settleMargin(principal.companyId, id, commandContext(request, principal));
  }

  @Get('incoming')
  @ApiOperation({ summary: 'Splits billed to the caller company, newest first' })
  incoming(@Query() query: PageQueryDto, @CurrentPrincipal() principal: Principal) {
    const { page, limit } = pageOf(query);
    return this.queries.list(principal.companyId, 'enterprise', page, limit);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a Split billed to the caller (PENDING_APPROVAL -> APPROVED; event split.leg_a.approved)' })
  approve(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.decisions.approve(principal.companyId, id, commandContext(request, principal));
  }

  @Post(':id/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a Split billed to the caller (PENDING_APPROVAL -> REJECTED; event split.leg_a.rejected)' })
  reject(@Param('id') id: string, @Body() body: RejectSplitRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.decisions.reject(principal.companyId, id, body?.reason ?? null, commandContext(request, principal));
  }
}
