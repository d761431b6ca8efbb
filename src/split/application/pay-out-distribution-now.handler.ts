import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { assertRowCanPayOutNow } from '../domain/split-settlement';
import { splitDecider } from '../domain/split.decider';
import { splitStreamId } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';
import { StartRowTransferCommand } from './start-row-transfer.handler';

/** The SME pays one row out now (instant, early-payout fee applies): the Split must be funded and the row not started. */
export class PayOutDistributionNowCommand extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly distributionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(PayOutDistributionNowCommand)
export class PayOutDistributionNowHandler implements ICommandHandler<PayOutDistributionNowCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly commands: CommandBus,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ smeCompanyId, splitId, distributionId, context }: PayOutDistributionNowCommand): Promise<SplitView> {
    const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    assertRowCanPayOutNow(state, distributionId, smeCompanyId);
    const result = await this.commands.execute(new StartRowTransferCommand(splitId, distributionId, true, context, true));
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
