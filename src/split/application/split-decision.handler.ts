import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { SplitCommand } from '../domain/split.commands';
import { splitDecider } from '../domain/split.decider';
import { splitStreamId } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitParty, SplitQueries } from './split-queries';

/**
 * The state moves with no roster: the enterprise approves or rejects, the SME cancels. The decider
 * checks who may (404 for anyone else) and when (409 unless PENDING_APPROVAL).
 */
@Injectable()
export class SplitDecisionHandler {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  approve(enterpriseCompanyId: string, splitId: string, context: CommandContext): Promise<SplitView> {
    return this.run({ type: 'ApproveSplit', data: { splitId, enterpriseCompanyId, actor: context.actor, now: this.now() } }, enterpriseCompanyId, 'enterprise', context);
  }

  reject(enterpriseCompanyId: string, splitId: string, reason: string | null, context: CommandContext): Promise<SplitView> {
    return this.run({ type: 'RejectSplit', data: { splitId, enterpriseCompanyId, reason, actor: context.actor, now: this.now() } }, enterpriseCompanyId, 'enterprise', context);
  }

  cancel(smeCompanyId: string, splitId: string, context: CommandContext): Promise<SplitView> {
    return this.run({ type: 'CancelSplit', data: { splitId, smeCompanyId, actor: context.actor, now: this.now() } }, smeCompanyId, 'sme', context);
  }

  private async run(command: SplitCommand, companyId: string, as: SplitParty, context: CommandContext): Promise<SplitView> {
    const result = await this.aggregates.handle(splitStreamId(command.data.splitId), splitDecider, command, context);
    await this.readYourWrites.after(result);
    return this.queries.get(command.data.splitId, companyId, as);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
