import { Module } from '@nestjs/common';
import { AdvanceSandboxClockHandler } from './application/advance-sandbox-clock.handler';
import { SandboxClockService } from './application/sandbox-clock.service';
import { SandboxClockController } from './http/sandbox-clock.controller';
import { IdentityModule } from '../identity/identity.module';
import { PartiesModule } from '../parties/parties.module';
import { SandboxPartiesController } from '../parties/http/sandbox-parties.controller';

/** Only mounted when SANDBOX=true. */
@Module({ imports: [IdentityModule, PartiesModule], controllers: [SandboxClockController, SandboxPartiesController], providers: [SandboxClockService, AdvanceSandboxClockHandler] })
export class SandboxModule {}
