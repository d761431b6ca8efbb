import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { SplitView } from '../projections/split-read-model.projection';
import { RosterResolver } from './roster-resolver';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';

/** The SME re-points a row that failed for good to another contractor it knows (issue 26 item 4); its transfer starts again. */
export class RepointDistributionMessage extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly distributionId: string,
    readonly to: { contractorPaymentProfileId?: string; subVendorId?: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(RepointDistributionMessage)
export class RepointDistributionHandler implements ICommandHandler<RepointDistributionMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly roster: RosterResolver,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ smeCompanyId, splitId, distributionId, to, context }: RepointDistributionMessage): Promise<SplitView> {
    // The Split is the caller's before anything about the contractor is looked up (404 otherwise, never a hint).
    await this.queries.get(splitId, smeCompanyId);
    const contractor = await this.roster.existingContractor(smeCompanyId, to);
    const result = await this.split.handle({ type: 'RepointRow', data: { splitId, smeCompanyId, distributionId, contractor }, metadata: this.split.metadata(context) }, context);
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
