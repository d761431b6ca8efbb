import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';
import { ApiData, ApiErrors, ApiPage } from '../../platform/http/openapi';
import { CREATE_SPLIT_EXAMPLES, REVISE_ROSTER_EXAMPLES, ROSTER_ERRORS, SME_FEE_NOT_COVERED } from './split.openapi';
import { SplitHistoryEntryDto, SplitViewDto } from './split.response.dto';
import { DistributionAlreadyPaidOutError, DistributionNotFoundError, SplitNotFundedError } from '../domain/split-settlement.errors';
import { SplitApContactInvalidError, SplitEnterpriseUnknownError, SplitNotFoundError, SplitNotPendingApprovalError } from '../domain/split.errors';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuth, ApiKeyOrSessionAuth, commandContext, CurrentPrincipal, FINANCE, type Principal, Roles } from '../../identity';
import { PageQueryDto, pageOf } from '../../platform/http/pagination';
import { CancelSplitMessage } from '../application/cancel-split.handler';
import { CreateSplitMessage } from '../application/create-split.handler';
import { PayOutDistributionNowMessage } from '../application/pay-out-distribution-now.handler';
import { ReviseRosterMessage } from '../application/revise-roster.handler';
import { SplitQueries } from '../application/split-queries';
import { SplitHistory } from '../application/split-history';
import { AsOfQueryDto, assertOneContractorPerRow, CreateSplitRequestDto, ReviseRosterRequestDto } from './split.request.dto';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';
import { sendListOrCsv } from '../../platform/http/list-export';
import { SPLIT_LIST_CSV } from './split-list.csv';
import { CreateSplitBody, CreateSplitBodyPipe } from './create-split.body-pipe';

@ApiTags('splits')
@ApiBearerAuth()
@ApiKeyAuth('split:write')
@Controller('api/commerce/integration/splits')
export class IntegrationSplitsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: SplitQueries,
    private readonly audit: SplitHistory,
  ) {}

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError, DistributionNotFoundError, SplitNotFundedError, DistributionAlreadyPaidOutError, SME_FEE_NOT_COVERED)
  @IdempotentRoute()
  @Post(':id/distributions/:distributionId/payout')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiKeyOrSessionAuth('split:write')
  @ApiOperation({ summary: 'Pay one row out now (instant, early-payout fee applies); the Split must be funded and the row not started' })
  payOutNow(
    @Param('id') id: string,
    @Param('distributionId') distributionId: string,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(() => this.commands.execute(new PayOutDistributionNowMessage(principal.companyId, id, distributionId, commandContext(request, principal))));
  }

  @ApiBody({ type: CreateSplitRequestDto, examples: CREATE_SPLIT_EXAMPLES })
  @ApiData(SplitViewDto, { replayed: true })
  @ApiErrors(...ROSTER_ERRORS, SplitEnterpriseUnknownError, SplitApContactInvalidError, IdempotencyKeyReusedError, SME_FEE_NOT_COVERED)
  @IdempotentRoute()
  @Post()
  @ApiKeyOrSessionAuth('split:write')
  @ApiOperation({
    summary: 'Create a Split billing an enterprise once (201); the same clientIdempotencyKey returns the existing Split (200, Idempotent-Replayed: true)',
  })
  async createSplit(
    @Body(CreateSplitBodyPipe) body: CreateSplitBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(async () => {
      assertOneContractorPerRow(body.roster);
      const { split, replayed } = await this.commands.execute(
        new CreateSplitMessage(
          principal.companyId,
          {
            enterpriseCompanyId: body.enterpriseCompanyId,
            apContactBusinessProfileId: body.apContactBusinessProfileId,
            clientIdempotencyKey: body.clientIdempotencyKey,
            totalAmountCents: body.totalAmountCents ?? null,
            roster: body.roster,
          },
          commandContext(request, principal),
        ),
      );
      if (replayed) void reply.status(200).header('Idempotent-Replayed', 'true');
      return split;
    });
  }

  @ApiPage(SplitViewDto)
  @Get()
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({ summary: "The caller's Splits, newest first (page default 1, limit default 20, max 100); Accept: text/csv exports every one" })
  async list(@Query() query: PageQueryDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const list = (page: number, limit: number) => this.queries.list(principal.companyId, 'sme', page, limit);
    await sendListOrCsv(request, reply, { filename: 'splits.csv', columns: SPLIT_LIST_CSV }, list, pageOf(query));
  }

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError)
  @Get(':id')
  @ApiOperation({ summary: 'One Split of the caller (404 for any other); ?asOf=<ISO time> returns it as it stood then' })
  get(@Param('id') id: string, @Query() query: AsOfQueryDto, @CurrentPrincipal() principal: Principal) {
    if (query.asOf !== undefined) return this.audit.asOf(id, principal.companyId, new Date(query.asOf));
    return this.queries.get(id, principal.companyId);
  }

  @ApiData(SplitHistoryEntryDto, { isArray: true })
  @ApiErrors(SplitNotFoundError)
  @Get(':id/history')
  @ApiOperation({ summary: "The Split's events in order: type, occurredAt, actor, revision, data (the SME's field list per event type, docs/api.md#who-sees-what)" })
  history(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.audit.history(id, principal.companyId);
  }

  @ApiBody({ type: ReviseRosterRequestDto, examples: REVISE_ROSTER_EXAMPLES })
  @ApiData(SplitViewDto)
  @ApiErrors(...ROSTER_ERRORS, SplitNotFoundError, SplitNotPendingApprovalError, SME_FEE_NOT_COVERED)
  @Put(':id/roster')
  @ApiKeyOrSessionAuth('split:write')
  @ApiOperation({ summary: 'Replace the whole roster while PENDING_APPROVAL (409 after)' })
  reviseRoster(@Param('id') id: string, @Body() body: ReviseRosterRequestDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    assertOneContractorPerRow(body.roster);
    return this.commands.execute(
      new ReviseRosterMessage(principal.companyId, id, { roster: body.roster, totalAmountCents: body.totalAmountCents ?? null }, commandContext(request, principal)),
    );
  }

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError, SplitNotPendingApprovalError)
  @Post(':id/cancel')
  @HttpCode(200)
  @ApiKeyOrSessionAuth('split:write')
  @ApiOperation({ summary: 'Cancel a Split while PENDING_APPROVAL (409 after)' })
  cancel(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new CancelSplitMessage(principal.companyId, id, commandContext(request, principal)));
  }
}
