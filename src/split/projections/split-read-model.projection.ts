import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { DistributionData, SecondPersonAction, SPLIT_EVENT_TYPES, SPLIT_STREAM_PREFIX, SplitApprovalPolicy, SplitCreated, SplitEvent } from '../domain/split.events';
import { PAYOUT_EVENT_TYPES, PAYOUT_STREAM_PREFIX, PayoutEvent, STATUS_AFTER } from '../../payouts';
import { SplitStatus } from '../domain/split.state';
import { assertNever } from '../../platform/domain/decider';
import { ApprovalBlockedReason, CollectionStatus, INVOICE_STREAM_PREFIX, InvoiceFact } from '../domain/split-collection';

export type MarginStatus = 'NONE' | 'PENDING' | 'HELD' | 'RELEASED';

/** A roster row exactly as the API returns it (docs/api.md#the-split-object-spec-23). */
export interface DistributionView {
  id: string;
  contractorPaymentProfileId: string | null;
  subVendorId: string | null;
  contractorDisplayName: string;
  creatorProfileId: string | null;
  amountCents: string;
  earlyPayoutElected: boolean;
  autoWithdrawElected: boolean;
  businessCoversFee: boolean;
  status: string;
  legBTransferPayoutId: string | null;
  legBWithdrawalPayoutId: string | null;
  feeAmountCents: string | null;
  netAmountCents: string | null;
  failureReason: string | null;
  /** Issue 26: what the SME took back of the row's net transfer so far ('0' when nothing). */
  reversedAmountCents: string;
  /** When the row's transfer failed for good (past the retry horizon); null otherwise, and again once re-pointed. */
  finalFailureAt: string | null;
}

/** The Split document is the API's Split shape (docs/api.md#the-split-object-spec-23), field for field. */
export interface SecondPersonRequestView {
  action: SecondPersonAction;
  rosterEntryId: string | null;
  amountCents: string;
  aboveAmountCents: string;
  requestedBy: string;
  requestedAt: string;
}

export interface SplitView {
  id: string;
  /** 1 at creation, +1 per roster revision (as the decider folds it). Documents written before it existed lack it: SplitQueries fills it in. */
  revision: number;
  smeCompanyId: string;
  smeCompanyName: string;
  enterpriseCompanyId: string;
  enterpriseCompanyName: string;
  enterpriseNetTermsDays: number;
  apContactBusinessProfileId: string;
  legAPayoutId: string;
  totalAmountCents: string;
  marginAmountCents: string;
  marginStatus: MarginStatus;
  marginHoldStartedAt: string | null;
  marginReleasedAt: string | null;
  feeBufferAmountCents: string;
  enterpriseCoversFee: boolean;
  enterpriseFeeAmountCents: string;
  currency: string;
  status: SplitStatus;
  distributions: DistributionView[];
  /**
   * Issue 30: the approvals of the current revision, who and when (a roster revision clears them), and how
   * many different people the Split needs. Documents written before lack both: the view fills in [] and 1.
   */
  approvals?: SplitApprovalView[];
  approvalsRequired?: number;
  /** Issue 30: pay-outs-now and margin releases waiting for a second member of the SME (SME only; older documents lack it: []). */
  awaitingSecondPerson?: SecondPersonRequestView[];
  /** Stored for the projection's own use (a revision recounts approvalsRequired); never in an answer. */
  approvalPolicy?: SplitApprovalPolicy;
  createdAt: string;
  updatedAt: string;
  /** The invoice billed to the enterprise at funding (issue 27); null before, and on Splits funded before invoices existed. */
  invoiceId?: string | null;
  /** How far that invoice is paid; null without one. */
  collectionStatus?: CollectionStatus | null;
  /** Why the Split waits for approval beyond the enterprise's review (computed when read, never stored). */
  approvalBlockedReason?: ApprovalBlockedReason | null;
  /** Stored, not shown: the invoice's due date, for the overdue rule on approvals (SplitQueries.overdueInvoiceOf). */
  invoiceDueAt?: string;
  /** Issue 29: the SME's reference (clientIdempotencyKey), the enterprise's rejection reason and when the Split funded. Absent on documents written before. */
  reference?: string | null;
  rejectionReason?: string | null;
  fundedAt?: string | null;
}

export interface SplitApprovalView {
  /** The approving user or key (`user:...`), `auto-accept`, or `enterprise` as the SME reads it. */
  approvedBy: string;
  approvedAt: string;
}

export const SPLITS = 'splits';

/** The projection's name (its checkpoint's), which a read of its documents waits for. */
export const SPLITS_PROJECTION = 'splits';

/** Splits as the SME lists them and the enterprise sees them incoming. */
@Injectable()
@LogSubscriber()
export class SplitReadModelProjection implements Projection {
  readonly name = SPLITS_PROJECTION;
  readonly streams = [SPLIT_STREAM_PREFIX, PAYOUT_STREAM_PREFIX, INVOICE_STREAM_PREFIX];
  readonly collections = [
    {
      name: SPLITS,
      // One per filter the lists send (docs/decisions.md, "Indexes for the merchant's order lists"): a page's
      // total is a COUNT, which read every one of the party's Splits for a filter no index led with.
      indexes: [
        ['smeCompanyId', 'createdAt'],
        ['enterpriseCompanyId', 'createdAt'],
        ['enterpriseCompanyId', 'collectionStatus', 'createdAt'],
        ['smeCompanyId', 'status', 'createdAt'],
        ['enterpriseCompanyId', 'status', 'createdAt'],
        ['smeCompanyId', 'collectionStatus', 'createdAt'],
      ],
    },
  ];

  handles(event: RecordedEvent): boolean {
    return SPLIT_EVENT_TYPES.has(event.type) || PAYOUT_EVENT_TYPES.has(event.type) || event.streamId.startsWith(INVOICE_STREAM_PREFIX);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    if (PAYOUT_EVENT_TYPES.has(recorded.type)) return this.applyPayout({ type: recorded.type, data: recorded.data } as PayoutEvent, writer);
    if (recorded.streamId.startsWith(INVOICE_STREAM_PREFIX)) return this.applyInvoice(recorded.data as unknown as InvoiceFact, writer);
    const { event, occurredAt } = timedSplitEvent(recorded);
    if (event.type === 'split.created') {
      writer.put<SplitView>(SPLITS, createdView(event));
      return;
    }
    // Changed in place: the batch's copy of a Split is serialized once, at commit, not on every event.
    const split = await writer.edit<SplitView>(SPLITS, event.data.splitId);
    if (!split) throw new Error(`${event.type} for unknown split ${event.data.splitId} (event ${recorded.id})`);
    changeAt({ event, occurredAt }, split);
  }

  /** The Split's invoice (issue 27): its id, its collection status after each of its events, its due date. */
  private async applyInvoice(fact: InvoiceFact, writer: ProjectionWriter): Promise<void> {
    const split = await writer.edit<SplitView>(SPLITS, fact.splitId);
    if (!split) return;
    split.invoiceId = fact.invoiceId;
    split.collectionStatus = fact.collectionStatus;
    if (fact.dueAt !== undefined) split.invoiceDueAt = fact.dueAt;
  }

  /** A row's status is its transfer payout's live status (docs/api.md#the-split-object-spec-23). */
  private async applyPayout(event: PayoutEvent, writer: ProjectionWriter): Promise<void> {
    const ref = event.data;
    if (ref.kind !== 'leg_b_transfer') return;
    const { splitId, distributionId, payoutId } = ref;
    const split = await writer.edit<SplitView>(SPLITS, splitId);
    const row = split?.distributions.find((candidate) => candidate.id === distributionId && candidate.legBTransferPayoutId === payoutId);
    if (!row) return;
    row.status = STATUS_AFTER[event.type];
    if (event.type === 'payout.failed' && event.data.reason) row.failureReason = event.data.reason;
  }
}

/** A Split's event with the time it was recorded at (the document's `updatedAt`). */
export interface TimedSplitEvent {
  event: SplitEvent;
  occurredAt: string;
}

/** A Split stream's recorded event as foldSplitView takes it. */
export function timedSplitEvent(recorded: RecordedEvent): TimedSplitEvent {
  return { event: { type: recorded.type, data: recorded.data } as SplitEvent, occurredAt: recorded.metadata.occurredAt };
}

/**
 * The document this projection writes for a Split, folded from the Split's own events alone, for an answer
 * that does not wait for the worker (create and approve; docs/decisions.md, "Split create and approve
 * answer from the Split's own events"). Exact until the Split funds: from then on its payouts and its
 * invoice change the document too, so a funded Split (or a stream that does not start with the Split's
 * creation) folds to null and the caller reads the projection.
 */
export function foldSplitView(events: readonly TimedSplitEvent[]): SplitView | null {
  const [first, ...rest] = events;
  if (first?.event.type !== 'split.created') return null;
  const split = createdView(first.event);
  for (const { event, occurredAt } of rest) {
    if (event.type === 'split.created' || event.type === 'split.funded') return null;
    changeAt({ event, occurredAt }, split);
  }
  return split;
}

/** One of the Split's own events after its creation, applied to its document (the projection and foldSplitView alike). */
function changeAt({ event, occurredAt }: { event: Exclude<SplitEvent, SplitCreated>; occurredAt: string }, split: SplitView): void {
  change(event, split);
  split.updatedAt = occurredAt;
}

function change(event: Exclude<SplitEvent, SplitCreated>, split: SplitView): void {
  endSecondPersonWait(event, split);
  switch (event.type) {
    case 'split.roster.revised':
      Object.assign(split, {
        // A document written before revisions existed stays without one (SplitQueries derives it from the stream).
        revision: split.revision === undefined ? undefined : split.revision + 1,
        totalAmountCents: event.data.totalAmountCents,
        marginAmountCents: event.data.marginAmountCents,
        marginStatus: marginStatusOf(event.data.marginAmountCents),
        enterpriseFeeAmountCents: event.data.enterpriseFeeAmountCents,
        distributions: event.data.distributions.map(distributionView),
        approvals: [],
        approvalsRequired: approvalsRequiredOf(split.approvalPolicy, event.data.totalAmountCents),
      });
      return;
    case 'split.approval.recorded':
      split.approvals = [...(split.approvals ?? []), { approvedBy: event.data.approvedBy, approvedAt: event.data.approvedAt }];
      return;
    case 'split.leg_a.approved':
      split.status = 'APPROVED';
      // A one-approval Split's approval is this event; a two-approval Split recorded its last one already.
      if (!(split.approvals ?? []).some((approval) => approval.approvedBy === event.data.approvedBy)) {
        split.approvals = [...(split.approvals ?? []), { approvedBy: event.data.approvedBy, approvedAt: event.data.approvedAt }];
      }
      return;
    case 'split.leg_a.rejected':
      Object.assign(split, { status: 'REJECTED', rejectionReason: event.data.reason });
      return;
    case 'split.cancelled':
      split.status = 'CANCELLED';
      return;
    case 'split.funded':
      Object.assign(split, { status: 'FUNDED', feeBufferAmountCents: event.data.feeBufferAmountCents, fundedAt: event.data.fundedAt });
      return;
    case 'split.margin.held':
      Object.assign(split, { marginStatus: 'HELD', marginHoldStartedAt: event.data.marginHoldStartedAt });
      return;
    case 'split.margin.settled':
      Object.assign(split, { marginStatus: 'RELEASED', marginReleasedAt: event.data.releasedAt });
      return;
    case 'split.roster_entry.transfer_started':
      if (split.status === 'FUNDED') split.status = 'SETTLING';
      updateRow(split, event.data.rosterEntryId, {
        legBTransferPayoutId: event.data.payoutId,
        feeAmountCents: event.data.feeAmountCents,
        netAmountCents: event.data.netAmountCents,
        status: 'PENDING',
        failureReason: null,
      });
      return;
    case 'split.roster_entry.failed':
      updateRow(split, event.data.rosterEntryId, { failureReason: event.data.reason });
      return;
    case 'split.roster_entry.withdrawal_started':
      updateRow(split, event.data.rosterEntryId, { legBWithdrawalPayoutId: event.data.payoutId });
      return;
    case 'split.settled':
      split.status = 'SETTLED';
      return;
    case 'split.leg_a.claimed':
    case 'split.margin.instant_elected':
    case 'split.roster_entry.settled':
      return;
    case 'split.roster_entry.reversed':
      for (const row of split.distributions) {
        if (row.id === event.data.rosterEntryId) row.reversedAmountCents = (BigInt(row.reversedAmountCents ?? '0') + BigInt(event.data.amountCents)).toString();
      }
      return;
    case 'split.roster_entry.failed_for_good':
      updateRow(split, event.data.rosterEntryId, { status: 'FAILED', failureReason: event.data.reason, finalFailureAt: event.data.failedAt });
      return;
    case 'split.roster_entry.repointed': {
      const { contractorPaymentProfileId, subVendorId, contractorDisplayName, creatorProfileId } = event.data.contractor;
      updateRow(split, event.data.rosterEntryId, {
        contractorPaymentProfileId,
        subVendorId,
        contractorDisplayName,
        creatorProfileId,
        status: 'PENDING',
        failureReason: null,
        finalFailureAt: null,
      });
      return;
    }
    case 'split.roster_entry.taken_back':
      updateRow(split, event.data.rosterEntryId, { status: 'TAKEN_BACK' });
      return;
    case 'split.second_person.requested': {
      const { splitId: _splitId, ...request } = event.data;
      split.awaitingSecondPerson = [...(split.awaitingSecondPerson ?? []), request];
      return;
    }
    case 'split.second_person.confirmed':
      return;
    default:
      return assertNever(event);
  }
}

/** Rows of a document projected before issue 26 lack its fields until `projections:rebuild splits`: their defaults (nothing reversed, no final failure). */
export function withRowDefaults(split: SplitView): SplitView {
  if (split.distributions.every((row) => row.reversedAmountCents !== undefined && row.finalFailureAt !== undefined)) return split;
  return {
    ...split,
    distributions: split.distributions.map((row) => ({ ...row, reversedAmountCents: row.reversedAmountCents ?? '0', finalFailureAt: row.finalFailureAt ?? null })),
  };
}

function updateRow(split: SplitView, distributionId: string, change: Partial<DistributionView>): void {
  for (const row of split.distributions) if (row.id === distributionId) Object.assign(row, change);
}

function createdView(event: SplitCreated): SplitView {
  const d = event.data;
  return {
    id: d.splitId,
    revision: 1,
    smeCompanyId: d.smeCompanyId,
    smeCompanyName: d.smeCompanyName,
    enterpriseCompanyId: d.enterpriseCompanyId,
    enterpriseCompanyName: d.enterpriseCompanyName,
    enterpriseNetTermsDays: d.enterpriseNetTermsDays,
    apContactBusinessProfileId: d.apContactBusinessProfileId,
    legAPayoutId: d.legAPayoutId,
    totalAmountCents: d.totalAmountCents,
    marginAmountCents: d.marginAmountCents,
    marginStatus: marginStatusOf(d.marginAmountCents),
    marginHoldStartedAt: null,
    marginReleasedAt: null,
    feeBufferAmountCents: '0',
    enterpriseCoversFee: d.enterpriseCoversFee,
    enterpriseFeeAmountCents: d.enterpriseFeeAmountCents,
    currency: d.currency,
    status: 'PENDING_APPROVAL',
    distributions: d.distributions.map(distributionView),
    approvals: [],
    approvalsRequired: approvalsRequiredOf(d.approvalPolicy, d.totalAmountCents),
    ...(d.approvalPolicy ? { approvalPolicy: d.approvalPolicy } : {}),
    createdAt: d.createdAt,
    updatedAt: d.createdAt,
    invoiceId: null,
    collectionStatus: null,
    reference: d.clientIdempotencyKey,
    rejectionReason: null,
    fundedAt: null,
  };
}

/** As the decider counts them (split.decider.ts approvalsRequired): the policy's number above its amount, else one. */
function approvalsRequiredOf(policy: SplitApprovalPolicy | undefined, totalAmountCents: string): number {
  return policy && BigInt(totalAmountCents) > BigInt(policy.aboveAmountCents) ? policy.requiredApprovals : 1;
}

/** The margin is never credited at creation: PENDING until the Split funds (docs/money.md#the-lifecycle). */
function marginStatusOf(marginAmountCents: string): MarginStatus {
  return marginAmountCents === '0' ? 'NONE' : 'PENDING';
}

function distributionView(row: DistributionData): DistributionView {
  return {
    id: row.id,
    contractorPaymentProfileId: row.contractorPaymentProfileId,
    subVendorId: row.subVendorId,
    contractorDisplayName: row.contractorDisplayName,
    creatorProfileId: row.creatorProfileId,
    amountCents: row.amountCents,
    earlyPayoutElected: row.earlyPayoutElected,
    autoWithdrawElected: row.autoWithdrawElected,
    businessCoversFee: row.businessCoversFee,
    status: 'PENDING',
    legBTransferPayoutId: null,
    legBWithdrawalPayoutId: null,
    feeAmountCents: null,
    netAmountCents: null,
    failureReason: null,
    reversedAmountCents: '0',
    finalFailureAt: null,
  };
}

/** Issue 30: a confirmed request, a row whose transfer started, a margin released or elected: nothing waits for a second member any more. */
function endSecondPersonWait(event: Exclude<SplitEvent, SplitCreated>, split: SplitView): void {
  if (!split.awaitingSecondPerson?.length) return;
  const ended =
    event.type === 'split.second_person.confirmed'
      ? { action: event.data.action, rosterEntryId: event.data.rosterEntryId }
      : event.type === 'split.roster_entry.transfer_started'
        ? { action: 'pay_out_now', rosterEntryId: event.data.rosterEntryId }
        : event.type === 'split.margin.settled' || event.type === 'split.margin.instant_elected'
          ? { action: 'settle_margin', rosterEntryId: null }
          : null;
  if (ended) split.awaitingSecondPerson = split.awaitingSecondPerson.filter((r) => !(r.action === ended.action && r.rosterEntryId === ended.rosterEntryId));
}
