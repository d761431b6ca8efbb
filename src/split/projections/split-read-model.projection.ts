import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { DistributionData, SPLIT_EVENT_TYPES, SPLIT_STREAM_PREFIX, SplitCreated, SplitEvent } from '../domain/split.events';
import { PAYOUT_EVENT_TYPES, PAYOUT_STREAM_PREFIX, PayoutEvent, STATUS_AFTER } from '../../payouts';
import { SplitStatus } from '../domain/split.state';

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
}

/** The Split document is the API's Split shape (docs/api.md#the-split-object-spec-23), field for field. */
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
  createdAt: string;
  updatedAt: string;
  /** Issue 29: the SME's reference (clientIdempotencyKey), the enterprise's rejection reason and when the Split funded. Absent on documents written before. */
  reference?: string | null;
  rejectionReason?: string | null;
  fundedAt?: string | null;
}

export const SPLITS = 'splits';

/** Splits as the SME lists them and the enterprise sees them incoming. */
@Injectable()
@LogSubscriber()
export class SplitReadModelProjection implements Projection {
  readonly name = 'splits';
  readonly streams = [SPLIT_STREAM_PREFIX, PAYOUT_STREAM_PREFIX];
  readonly collections = [
    {
      name: SPLITS,
      indexes: [
        ['smeCompanyId', 'createdAt'],
        ['enterpriseCompanyId', 'createdAt'],
      ],
    },
  ];

  handles(event: RecordedEvent): boolean {
    return SPLIT_EVENT_TYPES.has(event.type) || PAYOUT_EVENT_TYPES.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    if (PAYOUT_EVENT_TYPES.has(recorded.type)) return this.applyPayout({ type: recorded.type, data: recorded.data } as PayoutEvent, writer);
    const event = { type: recorded.type, data: recorded.data } as SplitEvent;
    if (event.type === 'split.created') {
      writer.put<SplitView>(SPLITS, createdView(event));
      return;
    }
    // Changed in place: the batch's copy of a Split is serialized once, at commit, not on every event.
    const split = await writer.edit<SplitView>(SPLITS, event.data.splitId);
    if (!split) throw new Error(`${event.type} for unknown split ${event.data.splitId} (event ${recorded.id})`);
    change(event, split);
    split.updatedAt = recorded.metadata.occurredAt;
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

function change(event: Exclude<SplitEvent, SplitCreated>, split: SplitView): void {
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
      });
      return;
    case 'split.leg_a.approved':
      split.status = 'APPROVED';
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
  }
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
    createdAt: d.createdAt,
    updatedAt: d.createdAt,
    reference: d.clientIdempotencyKey,
    rejectionReason: null,
    fundedAt: null,
  };
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
  };
}
