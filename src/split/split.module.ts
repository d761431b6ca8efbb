import { Module } from '@nestjs/common';
import { PartiesModule } from '../parties';
import { ApproveSplitHandler } from './application/approve-split.handler';
import { CancelSplitHandler } from './application/cancel-split.handler';
import { CompleteRowTransferHandler } from './application/complete-row-transfer.handler';
import { CreateSplitHandler } from './application/create-split.handler';
import { FailRowTransferHandler } from './application/fail-row-transfer.handler';
import { FundSplitHandler } from './application/fund-split.handler';
import { PayOutDistributionNowHandler } from './application/pay-out-distribution-now.handler';
import { RejectSplitHandler } from './application/reject-split.handler';
import { ReleaseMarginAtNetTermsHandler } from './application/release-margin-at-net-terms.handler';
import { ReviseRosterHandler } from './application/revise-roster.handler';
import { RosterResolver } from './application/roster-resolver';
import { SettleMarginHandler } from './application/settle-margin.handler';
import { SplitHistory } from './application/split-history';
import { SplitQueries } from './application/split-queries';
import { SplitSettlementProcessManager } from './application/split-settlement.process-manager';
import { SplitStream } from './application/split-stream';
import { SmeCoveredFees } from './application/sme-covered-fees';
import { StartRowTransferHandler } from './application/start-row-transfer.handler';
import { StartInstantTransfersHandler } from './application/start-instant-transfers.handler';
import { SplitReadModelProjection } from './projections/split-read-model.projection';
import { CreatorSplitsProjection } from './projections/creator-splits.projection';
import { SessionSplitsController } from './http/session-splits.controller';
import { EnterpriseSplitsController } from './http/enterprise-splits.controller';
import { IntegrationSplitsController } from './http/integration-splits.controller';
import { SplitRowActionsController } from './http/split-row-actions.controller';
import { ReverseDistributionHandler } from './application/reverse-distribution.handler';
import { RepointDistributionHandler } from './application/repoint-distribution.handler';
import { TakeBackDistributionHandler } from './application/take-back-distribution.handler';
import { PayoutPreviewController } from './http/payout-preview.controller';
import { SplitSecondPersonController } from './http/split-second-person.controller';
import { PayoutPreviewQuery } from './application/payout-preview';

/** What the SME and the enterprise call. */
const useCases = [
  CreateSplitHandler,
  ReviseRosterHandler,
  ApproveSplitHandler,
  RejectSplitHandler,
  CancelSplitHandler,
  PayOutDistributionNowHandler,
  SettleMarginHandler,
  StartRowTransferHandler,
  // Issue 26: a transferred row taken back, a row failed for good re-pointed or taken back.
  ReverseDistributionHandler,
  RepointDistributionHandler,
  TakeBackDistributionHandler,
];

/** What the settlement workflow sends (it also sends StartRowTransfer). */
const settlement = [
  SplitSettlementProcessManager,
  FundSplitHandler,
  StartInstantTransfersHandler,
  CompleteRowTransferHandler,
  FailRowTransferHandler,
  ReleaseMarginAtNetTermsHandler,
];

/** The Splits read model, and (issue 29) which Splits named a creator profile, for its upcoming rows. */
const readModels = [SplitReadModelProjection, CreatorSplitsProjection];

@Module({
  imports: [PartiesModule],
  controllers: [IntegrationSplitsController, EnterpriseSplitsController, SessionSplitsController, SplitRowActionsController, PayoutPreviewController, SplitSecondPersonController],
  providers: [SplitStream, SmeCoveredFees, SplitHistory, SplitQueries, RosterResolver, ...readModels, PayoutPreviewQuery, ...useCases, ...settlement],
  exports: [SplitQueries],
})
export class SplitModule {}
