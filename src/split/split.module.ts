import { Module } from '@nestjs/common';
import { PartiesModule } from '../parties/parties.module';
import { CreateSplitHandler } from './application/create-split.handler';
import { ReviseRosterHandler } from './application/revise-roster.handler';
import { RosterResolver } from './application/roster-resolver';
import { SplitDecisionHandler } from './application/split-decision.handler';
import { SplitQueries } from './application/split-queries';
import { SplitHistory } from './application/split-history';
import { SplitPayoutsHandler } from './application/split-payouts.handler';
import { EnterpriseSplitsController } from './http/enterprise-splits.controller';
import { IntegrationSplitsController } from './http/integration-splits.controller';

@Module({
  imports: [PartiesModule],
  controllers: [IntegrationSplitsController, EnterpriseSplitsController],
  providers: [SplitHistory, SplitPayoutsHandler, CreateSplitHandler, ReviseRosterHandler, SplitDecisionHandler, SplitQueries, RosterResolver],
  exports: [SplitQueries],
})
export class SplitModule {}
