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

export interface ApprovalPolicy {
  smeCompanyId: string | null;
  requiredApprovals: 1 | 2;
  aboveAmountCents: string;
  autoAcceptCapCents: string | null;
}

/** As an enterprise, how many members approve incoming Splits above which amount, and the auto-accept cap (issue 30). */
export class SetApprovalPolicyMessage extends Command<ApprovalPolicy & { enterpriseCompanyId: string }> {
  constructor(
    readonly enterpriseCompanyId: string,
    readonly policy: ApprovalPolicy,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(SetApprovalPolicyMessage)
export class SetApprovalPolicyHandler implements ICommandHandler<SetApprovalPolicyMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ enterpriseCompanyId, policy, context }: SetApprovalPolicyMessage) {
    if (policy.smeCompanyId !== null && !(await company(this.documents, policy.smeCompanyId))) throw new CompanyNotFoundError();
    const result = await this.aggregates.handle(
      companyStreamId(enterpriseCompanyId),
      companyDecider,
      { type: 'SetApprovalPolicy', data: { enterpriseCompanyId, ...policy }, metadata: commandMetadata(this.clock, context) },
      context,
    );
    await this.readYourWrites.after(result);
    return { enterpriseCompanyId, ...policy };
  }
}
