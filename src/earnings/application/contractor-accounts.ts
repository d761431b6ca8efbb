import { creatorOfUser, subVendorsOfUser } from '../../parties';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import type { Wallet } from '../domain/contractor-withdrawals.decider';

export interface ContractorAccounts {
  /** The ledger's contractor accounts this person owns: its creator payment profile (cpp_) and its roster entries (sv_). */
  contractors: string[];
  /** The wallet on file: the creator profile's (only it is verified); null without a creator profile. */
  wallet: Wallet | null;
}

export async function contractorAccountsOf(documents: DocumentReader, userId: string): Promise<ContractorAccounts> {
  const [creator, subVendors] = await Promise.all([creatorOfUser(documents, userId), subVendorsOfUser(documents, userId)]);
  const contractors = [...(creator ? [creator.id] : []), ...subVendors.map((subVendor) => subVendor.id)];
  const wallet = creator?.wallet ? { email: creator.wallet.email, active: creator.wallet.active, verified: creator.wallet.verified } : null;
  return { contractors, wallet };
}
