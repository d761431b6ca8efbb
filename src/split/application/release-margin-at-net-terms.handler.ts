import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SplitStream } from './split-stream';

/** Net terms matured: a margin still held is released (`split.margin.settled`). */
export class ReleaseMarginAtNetTermsMessage {
  constructor(
    readonly splitId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ReleaseMarginAtNetTermsMessage)
export class ReleaseMarginAtNetTermsHandler implements ICommandHandler<ReleaseMarginAtNetTermsMessage> {
  constructor(private readonly split: SplitStream) {}

  async execute({ splitId, context }: ReleaseMarginAtNetTermsMessage): Promise<void> {
    await this.split.handle({ type: 'ReleaseMarginAtNetTerms', data: { splitId }, metadata: this.split.metadata(context) }, context);
  }
}
