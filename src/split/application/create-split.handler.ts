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
import { DomainError } from '../../platform/domain/domain-error';
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
 * contact, clientIdempotencyKey) even under concurrent retries. A retry is found to be one when that
 * append conflicts, when a rule refuses it (the stream is read then), or before a side effect.
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
    try {
      return await this.createNew(splitId, smeCompanyId, request, requestHash, context);
    } catch (error) {
      // The Split exists: this is a retry of the request that created it (or a concurrent twin, or another
      // request with its key), answered from the Split even when its rules would refuse it today.
      if (error instanceof ConcurrencyError || error instanceof SplitAlreadyCreated) return this.replay(splitId, smeCompanyId, requestHash);
      if (error instanceof DomainError && (await this.exists(splitId))) return this.replay(splitId, smeCompanyId, requestHash);
      throw error;
    }
  }

  /**
   * Decides on an empty stream without reading it first (most creates are new: the read was a tenth of the
   * api's thread in the split bench) and appends with `no_stream`, which fails with a ConcurrencyError when
   * the Split exists. What would move money or write elsewhere first (covered fees set aside, email rows
   * provisioned) runs only after the stream is seen empty, as before.
   */
  private async createNew(splitId: string, smeCompanyId: string, request: CreateSplitRequest, requestHash: string, context: CommandContext): Promise<CreatedSplit> {
    checkRosterAmounts(request.roster, request.totalAmountCents);
    const metadata = this.split.metadata(context);
    const roster = await this.roster.resolve(smeCompanyId, request.roster, Date.parse(metadata.now));
    const command = await this.command(splitId, smeCompanyId, request, requestHash, roster.rows, metadata);
    const provisioned: Written[] = [];
    const result = await this.split.create(command, context, {
      // Once the decider accepted the Split: the fees the SME covers beyond the margin are set aside from
      // its balance (422 when short, nothing written), then the email rows' sub-vendors are provisioned.
      beforeAppend: async (decision) => {
        const setsAside = this.coveredFees.requiredFor(decision.state, decision.events) > 0n;
        if (!setsAside && roster.toProvision.length === 0) return;
        // Both are idempotent for the Split's id (test/e2e/split-covered-fees: a retry sets nothing aside
        // again), but a retry of a created Split should not lean on that: it is answered before either runs.
        if (await this.exists(splitId)) throw new SplitAlreadyCreated();
        if (setsAside) await this.coveredFees.setAsideFor(decision.state, decision.events, context);
        provisioned.push(...(await this.roster.commit(smeCompanyId, roster, context)));
      },
    });
    await this.readYourWrites.after(...provisioned);
    return { split: await this.answer(result, command), replayed: false };
  }

  private async exists(splitId: string): Promise<boolean> {
    return (await this.split.load(splitId)).state.status !== 'none';
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

/** A create found its Split already there before a side effect: answered as a replay, nothing written. */
class SplitAlreadyCreated extends Error {}
