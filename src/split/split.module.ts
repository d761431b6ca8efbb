import { Module } from '@nestjs/common';
import { PartiesModule } from '../parties/parties.module';
import { CreateSplitHandler } from './application/create-split.handler';
import { ReviseRosterHandler } from './application/revise-roster.handler';
import { RosterResolver } from './application/roster-resolver';
import { SplitDecisionHandler } from './application/split-decision.handler';
import { SplitQueries } from './application/split-queries';
import { SplitHistory } from './application/split-history';
import { SplitPayoutsHandler } from './application/split-payouts.handler';
import { SplitLedgerQuery } from '../ledger/application/split-ledger.query';
import { EnterpriseSplitsController } from './http/enterprise-splits.controller';
import { IntegrationSplitsController } from './http/integration-splits.controller';

@Module({
  imports: [PartiesModule],
  controllers: [IntegrationSplitsController, EnterpriseSplitsController],
  providers: [SplitHistory, SplitPayoutsHandler, SplitLedgerQuery, CreateSplitHandler, ReviseRosterHandler, SplitDecisionHandler, SplitQueries, RosterResolver],
})
export class SplitModule {}
