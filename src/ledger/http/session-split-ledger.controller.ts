import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { SplitNotFoundError, SplitQueries } from '../../split';
import { SplitLedgerQuery } from '../application/split-ledger.query';
import { PostingDto } from './ledger.response.dto';

/** The dashboard's view of a Split's postings, by session, for the SME that created it or the enterprise it bills. */
@ApiTags('splits')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/splits')
export class SessionSplitLedgerController {
  constructor(
    private readonly splits: SplitQueries,
    private readonly ledger: SplitLedgerQuery,
  ) {}

  @ApiData(PostingDto, { isArray: true })
  @ApiErrors(SplitNotFoundError)
  @Get(':id/ledger')
  @ApiOperation({ summary: "The Split's double-entry postings in order, for the SME or the enterprise of the Split (404 for any other company)" })
  async ledgerOf(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    await this.splits.getForParty(id, principal.companyId);
    return this.ledger.postings(id);
  }
}
