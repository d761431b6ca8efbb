import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SplitStream } from './split-stream';

/** Net terms matured: a margin still held is released (`split.margin.settled`). */
export class ReleaseMarginAtNetTermsCommand {
  constructor(
    readonly splitId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ReleaseMarginAtNetTermsCommand)
export class ReleaseMarginAtNetTermsHandler implements ICommandHandler<ReleaseMarginAtNetTermsCommand> {
  constructor(private readonly split: SplitStream) {}

  async execute({ splitId, context }: ReleaseMarginAtNetTermsCommand): Promise<void> {
    await this.split.handle({ type: 'ReleaseMarginAtNetTerms', data: { splitId }, metadata: this.split.metadata(context) }, context);
  }
}
