import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { CommandBus } from '@nestjs/cqrs';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { assertRowCanPayOutNow } from '../domain/split-settlement';
import { splitDecider } from '../domain/split.decider';
import { splitStreamId } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { StartRowTransferCommand } from './start-row-transfer.handler';
import { SplitQueries } from './split-queries';

/** The SME's money calls: an on-demand instant payout of one row, and settling the margin. */
@Injectable()
export class SplitPayoutsHandler {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async payOutNow(smeCompanyId: string, splitId: string, distributionId: string, context: CommandContext): Promise<SplitView> {
    const { state } = await this.aggregates.load(splitStreamId(splitId), splitDecider);
    assertRowCanPayOutNow(state, distributionId, smeCompanyId);
    const result = await this.commands.execute(new StartRowTransferCommand(splitId, distributionId, true, context));
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }

  async settleMargin(smeCompanyId: string, splitId: string, context: CommandContext): Promise<SplitView> {
    const result = await this.aggregates.handle(
      splitStreamId(splitId),
      splitDecider,
      { type: 'SettleMargin', data: { splitId, smeCompanyId, actor: context.actor, now: this.clock.now().toISOString() } },
      context,
    );
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
