import { company } from '../../identity';
import { contractorWalletOf, creatorOfUser, subVendorPayee, subVendorsOfUser } from '../../parties';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import type { Wallet } from '../domain/contractor-withdrawals.decider';

export interface ContractorAccounts {
  /** The ledger's contractor accounts this person owns: its creator payment profile (cpp_) and its roster entries (sv_). */
  contractors: string[];
  /** The wallet withdrawals go to (walletOnFile); null when there is none. */
  wallet: Wallet | null;
  /** Issue 29: a wallet the person named that waits for its emailed code. */
  pendingWallet: { email: string; codeExpiresAt: string } | null;
  /** The SubVendors behind the accounts: which SMEs pay the person (for its upcoming rows). */
  subVendors: { id: string; smeCompanyId: string }[];
  /** Issue 29: the person's creator payment profile (cpp_), if it has one (for its upcoming rows too). */
  creatorPaymentProfileId: string | null;
}

export async function contractorAccountsOf(documents: DocumentReader, userId: string): Promise<ContractorAccounts> {
  const [creator, subVendors, own] = await Promise.all([creatorOfUser(documents, userId), subVendorsOfUser(documents, userId), contractorWalletOf(documents, userId)]);
  const contractors = [...(creator ? [creator.id] : []), ...subVendors.map((subVendor) => subVendor.id)];
  const creatorWallet = creator?.wallet
    ? { email: creator.wallet.email, active: creator.wallet.active, verified: creator.wallet.verified, source: 'creator_profile' as const }
    : null;
  // The SMEs' say-so: the wallet emails they supplied for the person's roster entries (never the account's own copied in).
  const supplied = new Map<string, string>();
  for (const subVendor of subVendors) {
    const { walletEmail } = await subVendorPayee(documents, subVendor);
    if (walletEmail !== null && !supplied.has(walletEmail)) supplied.set(walletEmail, subVendor.smeCompanyId);
  }
  const [smeWallet] = supplied.size === 1 ? [...supplied.entries()] : [];
  const wallet: Wallet | null = own?.email
    ? { email: own.email, active: true, verified: true, source: 'own' }
    : creatorWallet?.active && creatorWallet.verified
      ? creatorWallet
      : smeWallet
        ? { email: smeWallet[0], active: true, verified: false, source: 'sme', suppliedBy: (await company(documents, smeWallet[1]))?.name ?? smeWallet[1] }
        : creatorWallet;
  const pendingWallet = own?.pendingEmail && own.codeExpiresAt ? { email: own.pendingEmail, codeExpiresAt: own.codeExpiresAt } : null;
  return {
    contractors,
    wallet,
    pendingWallet,
    subVendors: subVendors.map(({ id, smeCompanyId }) => ({ id, smeCompanyId })),
    creatorPaymentProfileId: creator?.id ?? null,
  };
}
