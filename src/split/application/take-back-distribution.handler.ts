import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';

/** The SME takes a row that failed for good back to its balance (issue 26 item 4); the Split can then settle. */
export class TakeBackDistributionMessage extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly distributionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(TakeBackDistributionMessage)
export class TakeBackDistributionHandler implements ICommandHandler<TakeBackDistributionMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ smeCompanyId, splitId, distributionId, context }: TakeBackDistributionMessage): Promise<SplitView> {
    const result = await this.split.handle({ type: 'TakeBackRow', data: { splitId, smeCompanyId, distributionId }, metadata: this.split.metadata(context) }, context);
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
