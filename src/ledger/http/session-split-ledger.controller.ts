import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { SplitLedgerQuery } from '../application/split-ledger.query';
import { ApiSplitLedger } from './ledger.response.dto';

/** The dashboard's view of a Split's postings, by session, for the SME that created it or the enterprise it bills. */
@ApiTags('splits')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/splits')
export class SessionSplitLedgerController {
  constructor(private readonly ledger: SplitLedgerQuery) {}

  @Get(':id/ledger')
  @ApiSplitLedger("The Split's double-entry postings in order, for the SME or the enterprise of the Split (404 for any other company)")
  ledgerOf(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.ledger.postingsFor(id, principal.companyId, 'party');
  }
}
