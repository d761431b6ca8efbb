import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * The enterprise rejects a Split billed to it, at the revision it reviewed: PENDING_APPROVAL -> REJECTED
 * (404 for anyone else, 409 unless pending, 409 SPLIT_CHANGED_SINCE_REVIEW at another revision).
 */
export class RejectSplitMessage extends Command<SplitView> {
  constructor(
    readonly enterpriseCompanyId: string,
    readonly splitId: string,
    readonly expectedRevision: number,
    readonly reason: string | null,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(RejectSplitMessage)
export class RejectSplitHandler implements ICommandHandler<RejectSplitMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ enterpriseCompanyId, splitId, expectedRevision, reason, context }: RejectSplitMessage): Promise<SplitView> {
    const result = await this.split.handle(
      { type: 'RejectSplit', data: { splitId, enterpriseCompanyId, expectedRevision, reason }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, enterpriseCompanyId, 'enterprise');
  }
}
