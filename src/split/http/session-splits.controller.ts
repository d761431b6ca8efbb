import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendListOrCsv } from '../../platform/http/list-export';
import { SPLIT_LIST_CSV } from './split-list.csv';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ApiData, ApiErrors, ApiPage } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { SplitHistory } from '../application/split-history';
import { SplitAudience } from '../application/split-audience';
import { SplitQueries } from '../application/split-queries';
import { SplitNotFoundError } from '../domain/split.errors';
import { AsOfQueryDto, SplitListQueryDto } from './split.request.dto';
import { collectionStatusesOf } from '../domain/split-collection';
import { SplitHistoryEntryDto, SplitViewDto } from './split.response.dto';

const BOTH_PARTIES: readonly SplitAudience[] = ['sme', 'enterprise'];

/**
 * The dashboard's reads of Splits, by session (a browser cannot hold API keys): the SME's outgoing list,
 * and one Split, its history and as-of view for either party (the SME that created it or the enterprise
 * it bills); to any other company it does not exist (404).
 */
@ApiTags('splits')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/splits')
export class SessionSplitsController {
  constructor(
    private readonly queries: SplitQueries,
    private readonly audit: SplitHistory,
  ) {}

  @ApiPage(SplitViewDto)
  @Get('outgoing')
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({
    summary: "The caller's own Splits (as the SME), newest first; ?status= narrows to one status, ?collectionStatus= to collection statuses; Accept: text/csv exports every one",
  })
  async outgoing(@Query() query: SplitListQueryDto, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const list = (page: number, limit: number) => this.queries.list(principal.companyId, 'sme', page, limit, query.status, collectionStatusesOf(query.collectionStatus));
    await sendListOrCsv(request, reply, { filename: 'splits-outgoing.csv', columns: SPLIT_LIST_CSV }, list, pageOf(query));
  }

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError)
  @Get(':id')
  @ApiOperation({ summary: 'One Split the caller created or is billed for (404 for any other); ?asOf=<ISO time> returns it as it stood then' })
  async get(@Param('id') id: string, @Query() query: AsOfQueryDto, @CurrentPrincipal() principal: Principal) {
    const split = await this.queries.getForParty(id, principal.companyId);
    if (query.asOf !== undefined) return this.audit.asOf(id, principal.companyId, new Date(query.asOf), BOTH_PARTIES);
    return split;
  }

  @ApiData(SplitHistoryEntryDto, { isArray: true })
  @ApiErrors(SplitNotFoundError)
  @Get(':id/history')
  @ApiOperation({
    summary:
      "The Split's events in order (type, occurredAt, actor, revision, data), each projected for the caller's side: the SME's or the enterprise's field list (docs/api.md#who-sees-what), never the recorded event data",
  })
  async history(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    await this.queries.getForParty(id, principal.companyId);
    return this.audit.history(id, principal.companyId, BOTH_PARTIES);
  }
}
