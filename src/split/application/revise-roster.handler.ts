import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { ReviseRoster } from '../domain/split.commands';
import { checkRosterAmounts } from '../domain/split.decider';
import { SplitView } from '../projections/split-read-model.projection';
import { RosterResolver, RosterRowRequest } from './roster-resolver';
import { SplitQueries } from './split-queries';
import { SmeCoveredFees } from './sme-covered-fees';
import { SplitStream } from './split-stream';

export class ReviseRosterMessage extends Command<SplitView> {
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
@CommandHandler(ReviseRosterMessage)
export class ReviseRosterHandler implements ICommandHandler<ReviseRosterMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly roster: RosterResolver,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    private readonly coveredFees: SmeCoveredFees,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ smeCompanyId, splitId, request, context }: ReviseRosterMessage): Promise<SplitView> {
    // The Split is the caller's before anything about the roster is looked up (404 otherwise, never a hint).
    await this.queries.get(splitId, smeCompanyId);
    checkRosterAmounts(request.roster, request.totalAmountCents);
    const metadata = this.split.metadata(context);
    const roster = await this.roster.resolve(smeCompanyId, request.roster, Date.parse(metadata.now));
    const command: ReviseRoster = {
      type: 'ReviseRoster',
      data: {
        splitId,
        smeCompanyId,
        totalAmountCents: request.totalAmountCents,
        rows: roster.rows,
        legAFeeBps: this.config.legAFeeBps,
      },
      metadata,
    };
    const result = await this.split.handle(command, context, {
      // Once the decider accepted the roster (404 another company's Split, 409 unless pending): set aside what
      // its covered fees need of the balance (422 SME_FEE_NOT_COVERED, nothing written), then provision the
      // email rows' sub-vendors. Both are idempotent: a decision that lost a race runs them again.
      beforeAppend: async (decision) => {
        await this.coveredFees.setAsideFor(decision.state, decision.events, context);
        await this.roster.commit(smeCompanyId, roster, context);
      },
    });
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
