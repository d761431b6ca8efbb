import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { PostingDto } from './ledger.response.dto';
import { ApiKeyAuth, CurrentPrincipal, type Principal } from '../../identity';
import { SplitNotFoundError, SplitQueries } from '../../split';
import { SplitLedgerQuery } from '../application/split-ledger.query';

@ApiTags('splits')
@ApiBearerAuth()
@ApiKeyAuth('split:write')
@Controller('api/commerce/integration/splits')
export class SplitLedgerController {
  constructor(
    private readonly splits: SplitQueries,
    private readonly ledger: SplitLedgerQuery,
  ) {}

  @ApiData(PostingDto, { isArray: true })
  @ApiErrors(SplitNotFoundError)
  @Get(':id/ledger')
  @ApiOperation({ summary: "The Split's double-entry postings (funding, transfers, margin release, withdrawals), in order" })
  async ledgerOf(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    // Another company's Split does not exist for the caller: 404, the same as GET /splits/:id.
    await this.splits.get(id, principal.companyId);
    return this.ledger.postings(id);
  }
}
