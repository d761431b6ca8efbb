import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SandboxClockService } from './sandbox-clock.service';

/** Moves the sandbox clock forward; done once everything due by the new time has run. */
export class AdvanceSandboxClockCommand extends Command<Date> {
  constructor(
    readonly seconds: number,
    readonly correlationId: string,
  ) {
    super();
  }
}

@CommandHandler(AdvanceSandboxClockCommand)
export class AdvanceSandboxClockHandler implements ICommandHandler<AdvanceSandboxClockCommand> {
  constructor(private readonly sandboxClock: SandboxClockService) {}

  execute({ seconds }: AdvanceSandboxClockCommand): Promise<Date> {
    return this.sandboxClock.advance(seconds);
  }
}
