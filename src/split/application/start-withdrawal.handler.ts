import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SplitStream } from './split-stream';

/** A settled row with auto-withdraw goes on to the contractor's verified wallet (the decider decides nothing otherwise). */
export class StartWithdrawalCommand {
  constructor(
    readonly splitId: string,
    readonly distributionId: string,
    readonly payoutId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(StartWithdrawalCommand)
export class StartWithdrawalHandler implements ICommandHandler<StartWithdrawalCommand> {
  constructor(private readonly split: SplitStream) {}

  async execute({ splitId, distributionId, payoutId, context }: StartWithdrawalCommand): Promise<void> {
    await this.split.handle({ type: 'StartWithdrawal', data: { splitId, distributionId, payoutId, now: this.split.now() } }, context);
  }
}
