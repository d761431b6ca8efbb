import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { PartiesModule } from '../parties/parties.module';
import { ApproveSplitHandler } from './application/approve-split.handler';
import { CancelSplitHandler } from './application/cancel-split.handler';
import { CreateSplitHandler } from './application/create-split.handler';
import { PayOutDistributionNowHandler } from './application/pay-out-distribution-now.handler';
import { RejectSplitHandler } from './application/reject-split.handler';
import { ReviseRosterHandler } from './application/revise-roster.handler';
import { RosterResolver } from './application/roster-resolver';
import { SettleMarginHandler } from './application/settle-margin.handler';
import { SplitQueries } from './application/split-queries';
import { SplitHistory } from './application/split-history';
import { StartRowTransferHandler } from './application/start-row-transfer.handler';
import { SplitLedgerQuery } from '../ledger/application/split-ledger.query';
import { EnterpriseSplitsController } from './http/enterprise-splits.controller';
import { IntegrationSplitsController } from './http/integration-splits.controller';

@Module({
  imports: [CqrsModule, PartiesModule],
  controllers: [IntegrationSplitsController, EnterpriseSplitsController],
  providers: [
    SplitHistory,
    SplitLedgerQuery,
    SplitQueries,
    RosterResolver,
    CreateSplitHandler,
    ReviseRosterHandler,
    ApproveSplitHandler,
    RejectSplitHandler,
    CancelSplitHandler,
    PayOutDistributionNowHandler,
    StartRowTransferHandler,
    SettleMarginHandler,
  ],
})
export class SplitModule {}
