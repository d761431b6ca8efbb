import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Frozen, Projection, ProjectionWriter } from '../../platform/projections/projection';
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
    // Each version is built from the last without copying it: most of a Split (its untouched rows) is shared.
    const split = await writer.getFrozen<SplitView>(SPLITS, event.data.splitId);
    if (!split) throw new Error(`${event.type} for unknown split ${event.data.splitId} (event ${recorded.id})`);
    writer.put<SplitView>(SPLITS, { ...split, ...changes(event, split), updatedAt: recorded.metadata.occurredAt });
  }

  /** A row's status is its transfer payout's live status (docs/api.md#the-split-object-spec-23). */
  private async applyPayout(event: PayoutEvent, writer: ProjectionWriter): Promise<void> {
    const ref = event.data;
    if (ref.kind !== 'leg_b_transfer') return;
    const { splitId, distributionId, payoutId } = ref;
    const split = await writer.getFrozen<SplitView>(SPLITS, splitId);
    if (!split) return;
    const status = STATUS_AFTER[event.type];
    const failureReason = event.type === 'payout.failed' ? event.data.reason : undefined;
    const row = split.distributions.find((candidate) => candidate.id === distributionId && candidate.legBTransferPayoutId === payoutId);
    // Nothing to write when the row says so already (payout.requested: transfer_started set it PENDING).
    if (!row || (row.status === status && (!failureReason || row.failureReason === failureReason))) return;
    writer.put<SplitView>(SPLITS, {
      ...split,
      distributions: split.distributions.map((row) =>
        row.id === distributionId && row.legBTransferPayoutId === payoutId ? { ...row, status, ...(failureReason ? { failureReason } : {}) } : row,
      ),
    });
  }
}

function changes(event: Exclude<SplitEvent, SplitCreated>, split: Frozen<SplitView>): Partial<Frozen<SplitView>> {
  switch (event.type) {
    case 'split.roster.revised':
      return {
        totalAmountCents: event.data.totalAmountCents,
        marginAmountCents: event.data.marginAmountCents,
        marginStatus: marginStatusOf(event.data.marginAmountCents),
        enterpriseFeeAmountCents: event.data.enterpriseFeeAmountCents,
        distributions: event.data.distributions.map(distributionView),
      };
    case 'split.leg_a.approved':
      return { status: 'APPROVED' };
    case 'split.leg_a.rejected':
      return { status: 'REJECTED' };
    case 'split.cancelled':
      return { status: 'CANCELLED' };
    case 'split.funded':
      return { status: 'FUNDED', feeBufferAmountCents: event.data.feeBufferAmountCents };
    case 'split.margin.held':
      return { marginStatus: 'HELD', marginHoldStartedAt: event.data.marginHoldStartedAt };
    case 'split.margin.settled':
      return { marginStatus: 'RELEASED', marginReleasedAt: event.data.releasedAt };
    case 'split.roster_entry.transfer_started':
      return {
        status: split.status === 'FUNDED' ? 'SETTLING' : split.status,
        distributions: updateRow(split, event.data.rosterEntryId, {
          legBTransferPayoutId: event.data.payoutId,
          feeAmountCents: event.data.feeAmountCents,
          netAmountCents: event.data.netAmountCents,
          status: 'PENDING',
          failureReason: null,
        }),
      };
    case 'split.roster_entry.failed':
      return { distributions: updateRow(split, event.data.rosterEntryId, { failureReason: event.data.reason }) };
    case 'split.roster_entry.withdrawal_started':
      return { distributions: updateRow(split, event.data.rosterEntryId, { legBWithdrawalPayoutId: event.data.payoutId }) };
    case 'split.settled':
      return { status: 'SETTLED' };
    case 'split.leg_a.claimed':
    case 'split.margin.instant_elected':
    case 'split.roster_entry.settled':
      return {};
  }
}

function updateRow(split: Frozen<SplitView>, distributionId: string, change: Partial<DistributionView>): Frozen<DistributionView>[] {
  return split.distributions.map((row) => (row.id === distributionId ? { ...row, ...change } : row));
}

function createdView(event: SplitCreated): SplitView {
  const d = event.data;
  return {
    id: d.splitId,
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
