import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The SME cancels its own Split: PENDING_APPROVAL -> CANCELLED (404 for anyone else, 409 unless pending). */
export class CancelSplitMessage extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CancelSplitMessage)
export class CancelSplitHandler implements ICommandHandler<CancelSplitMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ smeCompanyId, splitId, context }: CancelSplitMessage): Promise<SplitView> {
    const result = await this.split.handle({ type: 'CancelSplit', data: { splitId, smeCompanyId }, metadata: commandMetadata(this.clock, context) }, context);
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId, 'sme');
  }
}
