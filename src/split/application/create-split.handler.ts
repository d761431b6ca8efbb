import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { AppConfig } from '../../platform/config/app-config';
import { CommandMetadata } from '../../platform/domain/command';
import { CommandContext, Decided } from '../../platform/event-sourcing/aggregate-repository';
import { ConcurrencyError } from '../../platform/event-store/event-store.port';
import { deterministicId } from '../../platform/ids/ids';
import { IdempotencyKeyReusedError, requestFingerprint } from '../../platform/domain/idempotency';
import { ReadYourWrites, Written } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { businessProfile, CompanyQueries } from '../../parties';
import { CreateSplit } from '../domain/split.commands';
import { checkRosterAmounts } from '../domain/split.decider';
import { SplitApContactInvalidError, SplitEnterpriseUnknownError } from '../domain/split.errors';
import { SplitEvent } from '../domain/split.events';
import { SplitState } from '../domain/split.state';
import { foldSplitView, SplitView } from '../projections/split-read-model.projection';
import { RosterResolver, RosterRowRequest } from './roster-resolver';
import { SplitQueries } from './split-queries';
import { SmeCoveredFees } from './sme-covered-fees';
import { SplitStream } from './split-stream';

export interface CreateSplitRequest {
  enterpriseCompanyId: string;
  apContactBusinessProfileId: string;
  clientIdempotencyKey: string;
  totalAmountCents: string | null;
  roster: RosterRowRequest[];
}

export const SPLIT_CURRENCY = 'USD';

export interface CreatedSplit {
  split: SplitView;
  replayed: boolean;
}

export class CreateSplitMessage extends Command<CreatedSplit> {
  constructor(
    readonly smeCompanyId: string,
    readonly request: CreateSplitRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * Creates a Split (docs/api.md#post-apicommerceintegrationsplits-create-a-split-spec-45). Validation runs
 * before anything is written: amounts (400), rows (422), enterprise and AP contact (422), then the decider
 * on the fully resolved command; once it decided, the covered fees are set aside from the SME's balance
 * (422 SME_FEE_NOT_COVERED). Only then are email rows provisioned and the Split appended with
 * `no_stream` to its deterministic stream, which makes the create idempotent on (SME, enterprise, AP
 * contact, clientIdempotencyKey) even under concurrent retries.
 */
@CommandHandler(CreateSplitMessage)
export class CreateSplitHandler implements ICommandHandler<CreateSplitMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly roster: RosterResolver,
    private readonly companies: CompanyQueries,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    private readonly coveredFees: SmeCoveredFees,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ smeCompanyId, request, context }: CreateSplitMessage): Promise<CreatedSplit> {
    const splitId = deterministicId('spl', smeCompanyId, request.enterpriseCompanyId, request.apContactBusinessProfileId, request.clientIdempotencyKey);
    const requestHash = createSplitFingerprint(request);
    const existing = await this.split.load(splitId);
    if (existing.state.status !== 'none') return this.replay(splitId, smeCompanyId, requestHash);

    checkRosterAmounts(request.roster, request.totalAmountCents);
    const metadata = this.split.metadata(context);
    const roster = await this.roster.resolve(smeCompanyId, request.roster, Date.parse(metadata.now));
    const command = await this.command(splitId, smeCompanyId, request, requestHash, roster.rows, metadata);
    const provisioned: Written[] = [];
    try {
      // The stream was empty a moment ago: append with `no_stream` without reading it again. A concurrent
      // identical request that created it since makes the append fail with a ConcurrencyError: a replay.
      const result = await this.split.create(command, context, {
        // Once the decider accepted the Split: the fees the SME covers beyond the margin are set aside from
        // its balance (422 when short, nothing written), then the email rows' sub-vendors are provisioned.
        beforeAppend: async (decision) => {
          await this.coveredFees.setAsideFor(decision.state, decision.events, context);
          provisioned.push(...(await this.roster.commit(smeCompanyId, roster, context)));
        },
      });
      await this.readYourWrites.after(...provisioned);
      return { split: await this.answer(result, command), replayed: false };
    } catch (error) {
      if (error instanceof ConcurrencyError) return this.replay(splitId, smeCompanyId, requestHash);
      throw error;
    }
  }

  /**
   * The Split exists (maybe created a moment ago by a concurrent request): answer with it if this is
   * the request that created it, else 409 IDEMPOTENCY_KEY_REUSED.
   */
  private async replay(splitId: string, smeCompanyId: string, requestHash: string): Promise<CreatedSplit> {
    const { state } = await this.split.load(splitId);
    if (state.status !== 'none' && state.requestHash !== undefined && state.requestHash !== requestHash) {
      throw new IdempotencyKeyReusedError('clientIdempotencyKey');
    }
    return { split: await this.queries.get(splitId, smeCompanyId), replayed: true };
  }

  /**
   * The new Split as the projection will write it, folded from the events just appended: the answer does
   * not wait for the worker, and a read that follows waits for the Split's stream (SplitQueries). The
   * overdue-invoice lookup the decider was given answers the view's approvalBlockedReason too.
   */
  private async answer(created: Decided<SplitEvent, SplitState>, command: CreateSplit): Promise<SplitView> {
    const view = foldSplitView(created.events.map((event) => ({ event, occurredAt: command.metadata.now })));
    const known = { enterpriseBlocked: command.data.overdueInvoice !== null };
    if (view) return this.queries.shownTo(view, 'sme', known);
    return this.queries.get(command.data.splitId, command.data.smeCompanyId, 'sme', known);
  }

  private async command(
    splitId: string,
    smeCompanyId: string,
    request: CreateSplitRequest,
    requestHash: string,
    rows: CreateSplit['data']['rows'],
    metadata: CommandMetadata,
  ): Promise<CreateSplit> {
    const [sme, enterprise, apContact] = await Promise.all([
      this.companies.company(smeCompanyId),
      request.enterpriseCompanyId === smeCompanyId ? null : this.companies.company(request.enterpriseCompanyId),
      businessProfile(this.documents, request.apContactBusinessProfileId),
    ]);
    if (!enterprise) throw new SplitEnterpriseUnknownError('enterpriseCompanyId');
    if (!apContact || apContact.companyId !== enterprise.companyId) throw new SplitApContactInvalidError('apContactBusinessProfileId');
    return {
      type: 'CreateSplit',
      data: {
        splitId,
        legAPayoutId: deterministicId('po', splitId, 'leg-a'),
        smeCompanyId,
        smeCompanyName: sme?.name ?? smeCompanyId,
        enterprise: { companyId: enterprise.companyId, name: enterprise.name, netTermsDays: enterprise.netTermsDays },
        apContactBusinessProfileId: apContact.id,
        clientIdempotencyKey: request.clientIdempotencyKey,
        requestHash,
        totalAmountCents: request.totalAmountCents,
        currency: SPLIT_CURRENCY,
        rows,
        settings: await this.companies.splitSettings(enterprise.companyId, smeCompanyId),
        overdueInvoice: await this.queries.overdueInvoiceOf(enterprise.companyId),
        legAFeeBps: this.config.legAFeeBps,
      },
      metadata,
    };
  }
}

/**
 * What makes two creates with one clientIdempotencyKey the same request: the amounts and the roster,
 * with a row's omitted flags counted as their defaults (the other fields are part of the Split's id).
 */
export function createSplitFingerprint(request: CreateSplitRequest): string {
  return requestFingerprint({
    totalAmountCents: request.totalAmountCents,
    roster: request.roster.map((row) => ({
      amountCents: row.amountCents,
      earlyPayoutElected: row.earlyPayoutElected ?? false,
      autoWithdrawElected: row.autoWithdrawElected ?? false,
      businessCoversFee: row.businessCoversFee ?? false,
      contractorPaymentProfileId: row.contractorPaymentProfileId ?? null,
      subVendorId: row.subVendorId ?? null,
      email: row.email ?? null,
      fullName: row.fullName ?? null,
    })),
  });
}
