import { DocumentReader } from '../../platform/read-store/document-store.port';
import {
  ContractorAccountDoc,
  ContractorCreditDoc,
  ContractorReversalDoc,
  LEDGER_CONTRACTOR_ACCOUNTS,
  LEDGER_CONTRACTOR_CREDITS,
  LEDGER_CONTRACTOR_REVERSALS,
} from '../projections/ledger.projection';

// How other modules (earnings) read the ledger's contractor documents: by these functions, never by collection name.

/**
 * Per currency, per contractor account: the row transfers credited to it that are its owner's to withdraw,
 * less what row reversals and repayments of what it owed took back (issue 26).
 */
export async function withdrawableByAccount(documents: DocumentReader, contractors: string[]): Promise<Record<string, Record<string, string>>> {
  const byCurrency: Record<string, Record<string, string>> = {};
  for (const contractor of contractors) {
    for (const doc of await documents.find<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, { filter: { contractor } })) {
      const withdrawable = BigInt(doc.creditedCents) - BigInt(doc.autoWithdrawCents) - BigInt(doc.reversedCents ?? '0');
      (byCurrency[doc.currency] ??= {})[contractor] = withdrawable.toString();
    }
  }
  return byCurrency;
}

/** Row transfers credited to these contractor accounts, newest first, at most `limit` (posted at or before `asOf`, if given). */
export async function contractorCredits(documents: DocumentReader, contractors: string[], limit: number, asOf?: string): Promise<ContractorCreditDoc[]> {
  return newestOf<ContractorCreditDoc>(documents, LEDGER_CONTRACTOR_CREDITS, contractors, limit, asOf);
}

/** Issue 26: per currency, what these contractor accounts owe (contractor_receivable), only where it is more than 0. */
export async function owedByCurrency(documents: DocumentReader, contractors: string[]): Promise<Record<string, string>> {
  const owed: Record<string, bigint> = {};
  for (const contractor of contractors) {
    for (const doc of await documents.find<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, { filter: { contractor } })) {
      const cents = BigInt(doc.owedCents ?? '0');
      if (cents > 0n) owed[doc.currency] = (owed[doc.currency] ?? 0n) + cents;
    }
  }
  return Object.fromEntries(Object.entries(owed).map(([currency, cents]) => [currency, cents.toString()]));
}

/** Issue 26: reversals of rows of these contractor accounts, newest first, at most `limit` (posted at or before `asOf`, if given). */
export async function contractorReversals(documents: DocumentReader, contractors: string[], limit: number, asOf?: string): Promise<ContractorReversalDoc[]> {
  return newestOf<ContractorReversalDoc>(documents, LEDGER_CONTRACTOR_REVERSALS, contractors, limit, asOf);
}

/** The newest documents of these contractor accounts in one of their collections, newest first, at most `limit`. */
async function newestOf<T extends { id: string; postedAt: string }>(
  documents: DocumentReader,
  collection: string,
  contractors: string[],
  limit: number,
  asOf?: string,
): Promise<T[]> {
  const lists = await Promise.all(
    contractors.map((contractor) =>
      documents.find<T>(collection, {
        filter: { contractor },
        ...(asOf ? { range: { postedAt: { lte: asOf } } } : {}),
        sort: [
          { field: 'postedAt', direction: 'desc' },
          { field: 'id', direction: 'desc' },
        ],
        limit,
      }),
    ),
  );
  return lists
    .flat()
    .sort((a, b) => (a.postedAt === b.postedAt ? (a.id < b.id ? 1 : -1) : a.postedAt < b.postedAt ? 1 : -1))
    .slice(0, limit);
}

export type { ContractorCreditDoc, ContractorReversalDoc };
