import { DocumentReader } from '../../platform/read-store/document-store.port';
import { netTermsMaturity } from '../domain/row-transfer-schedule';
import { splitIdsOfCreator } from '../projections/creator-splits.projection';
import { SPLITS, SplitView } from '../projections/split-read-model.projection';

/** Issue 29: a row of an approved Split that has not reached the contractor yet, as the contractor reads it. */
export interface UpcomingRow {
  splitId: string;
  rosterEntryId: string;
  /** The roster entry the row pays: a SubVendor (sv_), or (issue 29) the person's creator payment profile (cpp_). */
  subVendorId: string | null;
  contractorPaymentProfileId: string | null;
  smeCompanyId: string;
  smeCompanyName: string;
  /** What will land as service balance (after an instant-payout fee, where one applies). */
  amountCents: string;
  currency: string;
  /** PENDING (waits for payday), PROCESSING (on its way) or FAILED (retried by itself). */
  status: string;
  earlyPayoutElected: boolean;
  /** When it is paid: funding for an instant payout, else net-terms maturity; null until the Split funds. */
  paydayAt: string | null;
}

const APPROVED = ['APPROVED', 'FUNDED', 'SETTLING'] as const;
const NOT_UPCOMING = new Set(['COMPLETED', 'TAKEN_BACK']);

/**
 * The rows of the given roster entries in their SMEs' approved, not yet settled Splits that were not transferred
 * yet, soonest payday first: SubVendors' rows read from the Splits read model by SME and status; the creator
 * payment profile's (issue 29) from the Splits that named it (creator_splits, one indexed read, then each Split by id).
 */
export async function upcomingRowsOf(
  documents: DocumentReader,
  subVendors: { id: string; smeCompanyId: string }[],
  creatorPaymentProfileId: string | null = null,
): Promise<UpcomingRow[]> {
  const mine = new Set(subVendors.map((s) => s.id));
  const rows: UpcomingRow[] = [];
  const seen = new Set<string>();
  const collect = (split: SplitView, isMine: (row: SplitView['distributions'][number]) => boolean) => {
    if (seen.has(split.id) || !(APPROVED as readonly string[]).includes(split.status)) return;
    seen.add(split.id);
    const fundedAt = split.fundedAt ?? split.marginHoldStartedAt;
    for (const row of split.distributions) {
      if (!isMine(row) || NOT_UPCOMING.has(row.status)) continue;
      rows.push({
        splitId: split.id,
        rosterEntryId: row.id,
        subVendorId: row.subVendorId,
        contractorPaymentProfileId: row.contractorPaymentProfileId,
        smeCompanyId: split.smeCompanyId,
        smeCompanyName: split.smeCompanyName,
        amountCents: row.netAmountCents ?? row.amountCents,
        currency: split.currency,
        status: row.status,
        earlyPayoutElected: row.earlyPayoutElected,
        paydayAt: fundedAt ? (row.earlyPayoutElected ? fundedAt : netTermsMaturity(fundedAt, split.enterpriseNetTermsDays)) : null,
      });
    }
  };
  const isMine = (row: SplitView['distributions'][number]) =>
    (row.subVendorId !== null && mine.has(row.subVendorId)) || (creatorPaymentProfileId !== null && row.contractorPaymentProfileId === creatorPaymentProfileId);
  for (const smeCompanyId of new Set(subVendors.map((s) => s.smeCompanyId))) {
    for (const status of APPROVED) {
      for (const split of await documents.find<SplitView>(SPLITS, { filter: { smeCompanyId, status } })) collect(split, isMine);
    }
  }
  if (creatorPaymentProfileId !== null) {
    for (const splitId of await splitIdsOfCreator(documents, creatorPaymentProfileId)) {
      if (seen.has(splitId)) continue;
      const split = await documents.get<SplitView>(SPLITS, splitId);
      if (split) collect(split, isMine);
    }
  }
  return rows.sort((a, b) => (a.paydayAt ?? '~').localeCompare(b.paydayAt ?? '~') || a.rosterEntryId.localeCompare(b.rosterEntryId));
}
