import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { company } from '../../identity/application/identity.queries';
import { CompanyCommand, companyDecider } from '../domain/company.decider';
import { CompanyNotFoundError } from '../domain/parties.errors';
import { companyStreamId } from '../domain/parties.events';

/** Net terms (as an enterprise) and per-SME split settings: both live in the company's own stream. */
@Injectable()
export class CompanySettingsHandler {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async setNetTerms(companyId: string, netTermsDays: number, context: CommandContext) {
    const state = await this.run(companyId, { type: 'SetNetTerms', data: { companyId, netTermsDays, now: this.now() } }, context);
    return { netTermsDays: state.netTermsDays };
  }

  async setSplitSettings(enterpriseCompanyId: string, smeCompanyId: string, settings: { autoAccept: boolean; coverFees: boolean }, context: CommandContext) {
    if (!(await company(this.documents, smeCompanyId))) throw new CompanyNotFoundError();
    await this.run(enterpriseCompanyId, { type: 'SetSplitSettings', data: { enterpriseCompanyId, smeCompanyId, ...settings, now: this.now() } }, context);
    return { enterpriseCompanyId, smeCompanyId, ...settings };
  }

  private async run(companyId: string, command: CompanyCommand, context: CommandContext) {
    const result = await this.aggregates.handle(companyStreamId(companyId), companyDecider, command, context);
    await this.readYourWrites.after(result);
    return result.state;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
