import { Module } from '@nestjs/common';
import { CompletePayoutHandler } from './application/complete-payout.handler';
import { FailPayoutHandler } from './application/fail-payout.handler';
import { PayoutStream } from './application/payout-stream';
import { RequestPayoutHandler } from './application/request-payout.handler';
import { SandboxRailProcessManager } from './application/sandbox-rail.process-manager';
import { StartPayoutProcessingHandler } from './application/start-payout-processing.handler';

/** Payouts: money leaving the platform (Split legs, merchant payouts) on the rail. Checkout and Split request them with `RequestPayoutMessage`. */
@Module({
  providers: [PayoutStream, RequestPayoutHandler, StartPayoutProcessingHandler, CompletePayoutHandler, FailPayoutHandler, SandboxRailProcessManager],
})
export class PayoutsModule {}
