import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { companyDecider } from '../domain/company.decider';
import { companyStreamId } from '../domain/parties.events';

/** Net terms (days) the company is billed on as an enterprise; kept in the company's own stream. */
export class SetNetTermsMessage extends Command<{ netTermsDays: number }> {
  constructor(
    readonly companyId: string,
    readonly netTermsDays: number,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(SetNetTermsMessage)
export class SetNetTermsHandler implements ICommandHandler<SetNetTermsMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, netTermsDays, context }: SetNetTermsMessage): Promise<{ netTermsDays: number }> {
    const result = await this.aggregates.handle(
      companyStreamId(companyId),
      companyDecider,
      { type: 'SetNetTerms', data: { companyId, netTermsDays }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    return { netTermsDays: result.state.netTermsDays };
  }
}
