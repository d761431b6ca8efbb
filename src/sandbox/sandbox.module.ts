import { Module } from '@nestjs/common';
import { SandboxClockService } from './application/sandbox-clock.service';
import { SandboxClockController } from './http/sandbox-clock.controller';

/** Only mounted when SANDBOX=true. */
@Module({ controllers: [SandboxClockController], providers: [SandboxClockService] })
export class SandboxModule {}
