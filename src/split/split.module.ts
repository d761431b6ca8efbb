import { Module } from '@nestjs/common';
import { PartiesModule } from '../parties/parties.module';
import { LedgerProjection } from '../ledger/projections/ledger.projection';
import { CompleteRowTransferHandler } from './application/complete-row-transfer.handler';
import { CreateSplitHandler } from './application/create-split.handler';
import { FailRowTransferHandler } from './application/fail-row-transfer.handler';
import { FundSplitHandler } from './application/fund-split.handler';
import { ReleaseMarginAtNetTermsHandler } from './application/release-margin-at-net-terms.handler';
import { ReviseRosterHandler } from './application/revise-roster.handler';
import { RosterResolver } from './application/roster-resolver';
import { SplitDecisionHandler } from './application/split-decision.handler';
import { SplitQueries } from './application/split-queries';
import { SplitHistory } from './application/split-history';
import { SplitPayoutsHandler } from './application/split-payouts.handler';
import { SplitSettlementProcessManager } from './application/split-settlement.process-manager';
import { SplitStream } from './application/split-stream';
import { StartRowTransferHandler } from './application/start-row-transfer.handler';
import { StartWithdrawalHandler } from './application/start-withdrawal.handler';
import { SplitLedgerQuery } from '../ledger/application/split-ledger.query';
import { SplitReadModelProjection } from './projections/split-read-model.projection';
import { EnterpriseSplitsController } from './http/enterprise-splits.controller';
import { IntegrationSplitsController } from './http/integration-splits.controller';

const settlement = [
  SplitStream,
  FundSplitHandler,
  StartRowTransferHandler,
  CompleteRowTransferHandler,
  FailRowTransferHandler,
  StartWithdrawalHandler,
  ReleaseMarginAtNetTermsHandler,
  SplitSettlementProcessManager,
];

@Module({
  imports: [PartiesModule],
  controllers: [IntegrationSplitsController, EnterpriseSplitsController],
  providers: [
    SplitHistory,
    SplitPayoutsHandler,
    SplitLedgerQuery,
    CreateSplitHandler,
    ReviseRosterHandler,
    SplitDecisionHandler,
    SplitQueries,
    RosterResolver,
    SplitReadModelProjection,
    LedgerProjection,
    ...settlement,
  ],
})
export class SplitModule {}
