import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { ReviseRoster } from '../domain/split.commands';
import { checkRosterAmounts, splitDecider } from '../domain/split.decider';
import { SplitNotFoundError, SplitNotPendingApprovalError } from '../domain/split.errors';
import { splitStreamId } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { RosterResolver, RosterRowRequest } from './roster-resolver';
import { SplitQueries } from './split-queries';
import { SmeCoveredFees } from './sme-covered-fees';

export class ReviseRosterCommand extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly request: { roster: RosterRowRequest[]; totalAmountCents: string | null },
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * Replaces the whole roster while PENDING_APPROVAL; 404 for another company's Split, 409 after, 422
 * SME_FEE_NOT_COVERED when the SME's balance cannot cover the fees it covers beyond the margin
 * (docs/api.md#put-apicommerceintegrationsplitsidroster-revise-a-pending-roster-spec-47).
 */
@CommandHandler(ReviseRosterCommand)
export class ReviseRosterHandler implements ICommandHandler<ReviseRosterCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly roster: RosterResolver,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    private readonly coveredFees: SmeCoveredFees,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ smeCompanyId, splitId, request, context }: ReviseRosterCommand): Promise<SplitView> {
    const stream = splitStreamId(splitId);
    const { state } = await this.aggregates.load(stream, splitDecider);
    if (state.status === 'none' || state.smeCompanyId !== smeCompanyId) throw new SplitNotFoundError();
    if (state.status !== 'PENDING_APPROVAL') throw new SplitNotPendingApprovalError(state.status);

    checkRosterAmounts(request.roster, request.totalAmountCents);
    const now = this.clock.now();
    const roster = await this.roster.resolve(smeCompanyId, request.roster, now.getTime());
    const command: ReviseRoster = {
      type: 'ReviseRoster',
      data: {
        splitId,
        smeCompanyId,
        totalAmountCents: request.totalAmountCents,
        rows: roster.rows,
        legAFeeBps: this.config.legAFeeBps,
        actor: context.actor,
        now: now.toISOString(),
      },
    };
    const decided = splitDecider.decide(command, state); // dry run before provisioning email rows
    // Set aside first what the new roster's covered fees need of the balance (422 SME_FEE_NOT_COVERED, nothing written).
    // A retried append decides the same roster on a newer pending state, which needs the same.
    await this.coveredFees.setAsideFor(state, decided, context);
    await this.roster.commit(smeCompanyId, roster, context);
    const result = await this.aggregates.handle(stream, splitDecider, command, context);
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
