import { Module } from '@nestjs/common';
import { AdvanceSandboxClockHandler } from './application/advance-sandbox-clock.handler';
import { SandboxClockService } from './application/sandbox-clock.service';
import { SandboxClockController } from './http/sandbox-clock.controller';
import { IdentityModule } from '../identity';
import { PartiesModule, SandboxPartiesController } from '../parties';
import { SandboxBalanceController } from '../payout-embed';
import { CollectionModule, SandboxBankTransfersController } from '../collection';

/** Only mounted when SANDBOX=true. */
@Module({
  imports: [IdentityModule, PartiesModule, CollectionModule],
  controllers: [SandboxClockController, SandboxPartiesController, SandboxBalanceController, SandboxBankTransfersController],
  providers: [SandboxClockService, AdvanceSandboxClockHandler],
})
export class SandboxModule {}
