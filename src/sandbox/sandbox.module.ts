import { Module } from '@nestjs/common';
import { AdvanceSandboxClockHandler } from './application/advance-sandbox-clock.handler';
import { SandboxClockService } from './application/sandbox-clock.service';
import { SandboxClockController } from './http/sandbox-clock.controller';
import { IdentityModule } from '../identity';
import { PartiesModule, SandboxPartiesController } from '../parties';
import { SandboxBalanceController } from '../payout-embed';

/** Only mounted when SANDBOX=true. */
@Module({
  imports: [IdentityModule, PartiesModule],
  controllers: [SandboxClockController, SandboxPartiesController, SandboxBalanceController],
  providers: [SandboxClockService, AdvanceSandboxClockHandler],
})
export class SandboxModule {}
