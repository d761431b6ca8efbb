import { DocumentReader } from '../../platform/read-store/document-store.port';
import { netTermsMaturity } from '../domain/row-transfer-schedule';
import { SPLITS, SplitView } from '../projections/split-read-model.projection';

/** Issue 29: a row of an approved Split that has not reached the contractor yet, as the contractor reads it. */
export interface UpcomingRow {
  splitId: string;
  rosterEntryId: string;
  subVendorId: string;
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
 * The rows of the given roster entries (SubVendors) in their SMEs' approved, not yet settled Splits that were not
 * transferred yet, soonest payday first. Read from the Splits read model, by SME and status.
 */
export async function upcomingRowsOf(documents: DocumentReader, subVendors: { id: string; smeCompanyId: string }[]): Promise<UpcomingRow[]> {
  const mine = new Set(subVendors.map((s) => s.id));
  const rows: UpcomingRow[] = [];
  for (const smeCompanyId of new Set(subVendors.map((s) => s.smeCompanyId))) {
    for (const status of APPROVED) {
      for (const split of await documents.find<SplitView>(SPLITS, { filter: { smeCompanyId, status } })) {
        const fundedAt = split.fundedAt ?? split.marginHoldStartedAt;
        for (const row of split.distributions) {
          if (!row.subVendorId || !mine.has(row.subVendorId) || NOT_UPCOMING.has(row.status)) continue;
          rows.push({
            splitId: split.id,
            rosterEntryId: row.id,
            subVendorId: row.subVendorId,
            smeCompanyId,
            smeCompanyName: split.smeCompanyName,
            amountCents: row.netAmountCents ?? row.amountCents,
            currency: split.currency,
            status: row.status,
            earlyPayoutElected: row.earlyPayoutElected,
            paydayAt: fundedAt ? (row.earlyPayoutElected ? fundedAt : netTermsMaturity(fundedAt, split.enterpriseNetTermsDays)) : null,
          });
        }
      }
    }
  }
  return rows.sort((a, b) => (a.paydayAt ?? '~').localeCompare(b.paydayAt ?? '~') || a.rosterEntryId.localeCompare(b.rosterEntryId));
}
