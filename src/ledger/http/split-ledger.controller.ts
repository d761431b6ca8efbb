import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentPrincipal, type Principal } from '../../identity';
import { SplitLedgerQuery } from '../application/split-ledger.query';
import { ApiSplitLedger } from './ledger.response.dto';

/** An integration's view of a Split's postings, by API key, for the SME that created it (SplitLedgerQuery holds the body). */
@ApiTags('splits')
@ApiBearerAuth()
@ApiKeyAuth('split:write')
@Controller('api/commerce/integration/splits')
export class SplitLedgerController {
  constructor(private readonly ledger: SplitLedgerQuery) {}

  @Get(':id/ledger')
  @ApiSplitLedger("The Split's double-entry postings (funding, transfers, margin release, withdrawals), in order")
  ledgerOf(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.ledger.postingsFor(id, principal.companyId, 'sme');
  }
}
