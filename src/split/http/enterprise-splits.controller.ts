import { SplitAlreadyApprovedByYouError, SplitApproverFromSmeError } from '../domain/split-approval.errors';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors, ApiPage } from '../../platform/http/openapi';
import { SplitViewDto } from './split.response.dto';
import { SplitMarginNotSettleableError } from '../domain/split-settlement.errors';
import { EnterpriseInvoiceOverdueError, SplitChangedSinceReviewError, SplitNotFoundError, SplitNotPendingApprovalError } from '../domain/split.errors';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendListOrCsv } from '../../platform/http/list-export';
import { SPLIT_LIST_CSV } from './split-list.csv';
import { commandContext, CurrentPrincipal, FINANCE, type Principal, Roles, SessionAuth } from '../../identity';
import { pageOf } from '../../platform/http/pagination';
import { ApproveSplitMessage } from '../application/approve-split.handler';
import { RejectSplitMessage } from '../application/reject-split.handler';
import { SettleMarginMessage } from '../application/settle-margin.handler';
import { SplitQueries } from '../application/split-queries';
import { ApproveSplitRequestDto, RejectSplitRequestDto, SplitListQueryDto } from './split.request.dto';
import { collectionStatusesOf } from '../domain/split-collection';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';

/** Session calls on Splits: the enterprise's incoming list and approval, and the SME's margin settlement. */
@ApiTags('splits')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/splits')
export class EnterpriseSplitsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: SplitQueries,
  ) {}

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError, SplitMarginNotSettleableError)
  @IdempotentRoute()
  @Post(':id/settle-margin')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({ summary: "The SME's own call: release a HELD margin now, or elect instant release while PENDING (409 otherwise; session only)" })
  settleMargin(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @IdempotencyKey() once: OnceByKey) {
    return once(() => this.commands.execute(new SettleMarginMessage(principal.companyId, id, commandContext(request, principal))));
  }

  @ApiPage(SplitViewDto)
  @Get('incoming')
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({
    summary:
      'Splits billed to the caller company, newest first; ?status= narrows to one status, ?collectionStatus= to collection statuses (e.g. PENDING_APPROVAL for the inbox); Accept: text/csv exports every one',
  })
  async incoming(@Query() query: SplitListQueryDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const list = (page: number, limit: number) => this.queries.list(principal.companyId, 'enterprise', page, limit, query.status, collectionStatusesOf(query.collectionStatus));
    await sendListOrCsv(request, reply, { filename: 'splits-incoming.csv', columns: SPLIT_LIST_CSV }, list, pageOf(query));
  }

  @ApiData(SplitViewDto)
  @ApiErrors(
    SplitNotFoundError,
    SplitNotPendingApprovalError,
    SplitChangedSinceReviewError,
    SplitAlreadyApprovedByYouError,
    SplitApproverFromSmeError,
    EnterpriseInvoiceOverdueError,
  )
  @Post(':id/approve')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Approve a Split billed to the caller at the `revision` it reviewed (PENDING_APPROVAL -> APPROVED; event split.leg_a.approved); 409 SPLIT_CHANGED_SINCE_REVIEW when the Split has changed since. A Split with approvalsRequired 2 stays PENDING_APPROVAL after the first approval (event split.approval.recorded) and is approved by a second, different member (409 SPLIT_ALREADY_APPROVED_BY_YOU); a member of the SME never approves (403 SPLIT_APPROVER_FROM_SME)',
  })
  approve(@Param('id') id: string, @Body() body: ApproveSplitRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new ApproveSplitMessage(principal.companyId, id, body.revision, commandContext(request, principal)));
  }

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError, SplitNotPendingApprovalError, SplitChangedSinceReviewError)
  @Post(':id/reject')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Reject a Split billed to the caller at the `revision` it reviewed (PENDING_APPROVAL -> REJECTED; event split.leg_a.rejected); 409 SPLIT_CHANGED_SINCE_REVIEW when the Split has changed since',
  })
  reject(@Param('id') id: string, @Body() body: RejectSplitRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new RejectSplitMessage(principal.companyId, id, body.revision, body.reason ?? null, commandContext(request, principal)));
  }
}
