import { DocumentReader } from '../../platform/read-store/document-store.port';
import { CreatorDoc, SubVendorDoc } from '../projections/parties-read-model.projection';
import { contractorWalletOf } from './contractor-wallet.queries';
import { creatorOfUser } from './parties.queries';

/**
 * A SubVendor as its SME reads it: what the SME supplied (email, name, wallet email, kind) and whether
 * a wallet is on file for its rows (`hasWallet`), never the name or wallet of the account behind the email.
 */
export interface SubVendorView {
  id: string;
  smeCompanyId: string;
  email: string;
  fullName: string | null;
  walletEmail: string | null;
  hasWallet: boolean;
  kind: SubVendorDoc['kind'];
  userId: string | null;
  creatorProfileId: string | null;
  createdAt: string;
}

/** What a SubVendor's roster rows pay to, and the fields its SME supplied. */
export interface SubVendorPayee {
  fullName: string | null;
  walletEmail: string | null;
  /**
   * The wallet an instant payout or auto-withdrawal of its rows may use: the one the contractor added and
   * verified itself (contractor_wallets, issue 29), else the one the SME supplied, else the account's creator
   * wallet only while it is active and verified; null when there is none.
   */
  payoutWallet: string | null;
}

/**
 * SubVendors created before `smeSuppliedOnly` was recorded copied the account's full name and wallet when
 * the SME gave none: a value equal to the account's is treated as that copy (hidden, and the wallet used
 * only under the account's own rule), so old data neither shows nor pays to what the SME never supplied.
 */
function supplied(subVendor: SubVendorDoc, account: CreatorDoc | null): Pick<SubVendorPayee, 'fullName' | 'walletEmail'> {
  if (subVendor.smeSuppliedOnly) return { fullName: subVendor.fullName, walletEmail: subVendor.walletEmail };
  return {
    fullName: subVendor.fullName !== null && subVendor.fullName !== account?.fullName ? subVendor.fullName : null,
    walletEmail: subVendor.walletEmail !== null && subVendor.walletEmail !== account?.wallet?.email ? subVendor.walletEmail : null,
  };
}

export async function subVendorPayee(documents: DocumentReader, subVendor: SubVendorDoc): Promise<SubVendorPayee> {
  // Issue 29: the contractor's own verified wallet comes first (its money, a wallet it proved); one keyed read.
  const own = await contractorOwnWallet(documents, subVendor);
  // A SubVendor recorded with only the SME's own fields and a wallet the SME gave needs nothing of the
  // account: not reading it saved one query per roster row of a Split create (issue 31).
  if (subVendor.smeSuppliedOnly && subVendor.walletEmail !== null) {
    return { fullName: subVendor.fullName, walletEmail: subVendor.walletEmail, payoutWallet: own ?? subVendor.walletEmail };
  }
  const account = subVendor.userId ? await creatorOfUser(documents, subVendor.userId) : null;
  const fields = supplied(subVendor, account);
  const wallet = account?.wallet;
  const accountWallet = wallet && wallet.active && wallet.verified ? wallet.email : null;
  return { ...fields, payoutWallet: own ?? fields.walletEmail ?? accountWallet };
}

/**
 * Issue 29: the wallet the person behind a SubVendor added and verified itself (contractor_wallets, keyed by
 * its userId), or null (no account yet, or no verified wallet of its own). A wallet waiting for its code is
 * not one: until the code is right the wallet on file stays as it was.
 */
export async function contractorOwnWallet(documents: DocumentReader, subVendor: Pick<SubVendorDoc, 'userId'>): Promise<string | null> {
  if (!subVendor.userId) return null;
  return (await contractorWalletOf(documents, subVendor.userId))?.email ?? null;
}

/** The SubVendor shape of the API, field by field. */
export async function subVendorView(documents: DocumentReader, subVendor: SubVendorDoc): Promise<SubVendorView> {
  const payee = await subVendorPayee(documents, subVendor);
  return {
    id: subVendor.id,
    smeCompanyId: subVendor.smeCompanyId,
    email: subVendor.email,
    fullName: payee.fullName,
    walletEmail: payee.walletEmail,
    hasWallet: payee.payoutWallet !== null,
    kind: subVendor.kind,
    userId: subVendor.userId,
    creatorProfileId: subVendor.creatorProfileId,
    createdAt: subVendor.createdAt,
  };
}
