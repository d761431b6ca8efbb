import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { company } from '../../identity';
import { companyDecider } from '../domain/company.decider';
import { CompanyNotFoundError } from '../domain/parties.errors';
import { companyStreamId } from '../domain/parties.events';

export interface SplitSettings {
  autoAccept: boolean;
  coverFees: boolean;
}

/** As an enterprise, auto-accept and fee cover for one SME's Splits; kept in the enterprise's own stream. */
export class SetSplitSettingsMessage extends Command<{ enterpriseCompanyId: string; smeCompanyId: string } & SplitSettings> {
  constructor(
    readonly enterpriseCompanyId: string,
    readonly smeCompanyId: string,
    readonly settings: SplitSettings,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(SetSplitSettingsMessage)
export class SetSplitSettingsHandler implements ICommandHandler<SetSplitSettingsMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ enterpriseCompanyId, smeCompanyId, settings, context }: SetSplitSettingsMessage) {
    if (!(await company(this.documents, smeCompanyId))) throw new CompanyNotFoundError();
    const result = await this.aggregates.handle(
      companyStreamId(enterpriseCompanyId),
      companyDecider,
      { type: 'SetSplitSettings', data: { enterpriseCompanyId, smeCompanyId, ...settings }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    return { enterpriseCompanyId, smeCompanyId, ...settings };
  }
}
