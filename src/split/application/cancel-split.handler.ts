import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { splitDecider } from '../domain/split.decider';
import { splitStreamId } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';

/** The SME cancels its own Split: PENDING_APPROVAL -> CANCELLED (404 for anyone else, 409 unless pending). */
export class CancelSplitCommand extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CancelSplitCommand)
export class CancelSplitHandler implements ICommandHandler<CancelSplitCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ smeCompanyId, splitId, context }: CancelSplitCommand): Promise<SplitView> {
    const result = await this.aggregates.handle(
      splitStreamId(splitId),
      splitDecider,
      { type: 'CancelSplit', data: { splitId, smeCompanyId, actor: context.actor, now: this.clock.now().toISOString() } },
      context,
    );
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId, 'sme');
  }
}
