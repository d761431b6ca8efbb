import { DistributionData, SplitEvent } from '../../src/split/domain/split.events';

/** Split events for domain and workflow specs: Split `spl_1` of SME `co_sme`, billed to `co_ent` at 30-day terms. */
export const SPLIT_CREATED_AT = '2026-01-01T00:00:00.000Z';

export function row(n: number, amountCents: string, flags: Partial<DistributionData> = {}): DistributionData {
  return {
    id: `dst_${n}`,
    contractorPaymentProfileId: null,
    subVendorId: `sv_${n}`,
    contractorDisplayName: `Vendor ${n}`,
    creatorProfileId: null,
    walletEmail: null,
    contractorEmail: `v${n}@example.com`,
    amountCents,
    earlyPayoutElected: false,
    autoWithdrawElected: false,
    businessCoversFee: false,
    ...flags,
  };
}

type CreatedData = Extract<SplitEvent, { type: 'split.created' }>['data'];

export const created = (distributions: DistributionData[], total: string, margin: string, overrides: Partial<CreatedData> = {}): SplitEvent => ({
  type: 'split.created',
  data: {
    splitId: 'spl_1',
    smeCompanyId: 'co_sme',
    smeCompanyName: 'SME',
    enterpriseCompanyId: 'co_ent',
    enterpriseCompanyName: 'Ent',
    enterpriseNetTermsDays: 30,
    apContactBusinessProfileId: 'bp_1',
    clientIdempotencyKey: 'k',
    legAPayoutId: 'po_a',
    currency: 'USD',
    totalAmountCents: total,
    marginAmountCents: margin,
    enterpriseCoversFee: false,
    enterpriseFeeAmountCents: '0',
    distributions,
    createdBy: 'key',
    createdAt: SPLIT_CREATED_AT,
    ...overrides,
  },
});

export const approved: SplitEvent = {
  type: 'split.leg_a.approved',
  data: { splitId: 'spl_1', legAPayoutId: 'po_a', approvedBy: 'usr', autoAccepted: false, approvedAt: SPLIT_CREATED_AT },
};

export const funded = (rosterSum: string, feeBuffer = '0'): SplitEvent => ({
  type: 'split.funded',
  data: { splitId: 'spl_1', legAPayoutId: 'po_a', rosterSumCents: rosterSum, feeBufferAmountCents: feeBuffer, invoiced: true, fundedAt: SPLIT_CREATED_AT },
});

/** The SME revised the roster of a Split still pending approval (no margin, no enterprise fee). */
export const revised = (distributions: DistributionData[], total: string, revisedAt = SPLIT_CREATED_AT): SplitEvent => ({
  type: 'split.roster.revised',
  data: { splitId: 'spl_1', totalAmountCents: total, marginAmountCents: '0', enterpriseFeeAmountCents: '0', distributions, revisedBy: 'usr', revisedAt },
});
