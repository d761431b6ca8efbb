import { DocumentReader } from '../../platform/read-store/document-store.port';
import { ContractorAccountDoc, ContractorCreditDoc, LEDGER_CONTRACTOR_ACCOUNTS, LEDGER_CONTRACTOR_CREDITS } from '../projections/ledger.projection';

// How other modules (earnings) read the ledger's contractor documents: by these functions, never by collection name.

/** Per currency, per contractor account: the row transfers credited to it that are its owner's to withdraw. */
export async function withdrawableByAccount(documents: DocumentReader, contractors: string[]): Promise<Record<string, Record<string, string>>> {
  const byCurrency: Record<string, Record<string, string>> = {};
  for (const contractor of contractors) {
    for (const doc of await documents.find<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, { filter: { contractor } })) {
      const withdrawable = BigInt(doc.creditedCents) - BigInt(doc.autoWithdrawCents);
      (byCurrency[doc.currency] ??= {})[contractor] = withdrawable.toString();
    }
  }
  return byCurrency;
}

/** Row transfers credited to these contractor accounts, newest first, at most `limit`. */
export async function contractorCredits(documents: DocumentReader, contractors: string[], limit: number): Promise<ContractorCreditDoc[]> {
  const lists = await Promise.all(
    contractors.map((contractor) =>
      documents.find<ContractorCreditDoc>(LEDGER_CONTRACTOR_CREDITS, {
        filter: { contractor },
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

export type { ContractorCreditDoc };
