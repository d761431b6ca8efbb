import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SandboxClockService } from './sandbox-clock.service';

/** Moves the sandbox clock forward; done once everything due by the new time has run. */
export class AdvanceSandboxClockMessage extends Command<Date> {
  constructor(
    readonly seconds: number,
    readonly correlationId: string,
  ) {
    super();
  }
}

@CommandHandler(AdvanceSandboxClockMessage)
export class AdvanceSandboxClockHandler implements ICommandHandler<AdvanceSandboxClockMessage> {
  constructor(private readonly sandboxClock: SandboxClockService) {}

  execute({ seconds }: AdvanceSandboxClockMessage): Promise<Date> {
    return this.sandboxClock.advance(seconds);
  }
}
