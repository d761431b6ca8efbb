import { Doc, DocumentReader } from '../../platform/read-store/document-store.port';
import { CreatorDoc, SubVendorDoc } from '../projections/parties-read-model.projection';
import { CONTRACTOR_WALLETS, ContractorWalletDoc } from '../projections/contractor-wallet.projection';
import { subVendorPayee, subVendorView } from './sub-vendor-view';

const creator = (wallet: CreatorDoc['wallet']): CreatorDoc => ({
  id: 'cpp_1',
  creatorProfileId: 'crp_1',
  userId: 'usr_1',
  companyId: 'co_c',
  fullName: 'Account Owner',
  email: 'owner@example.test',
  active: true,
  wallet,
  createdAt: 't',
});
const reader = (account: CreatorDoc | null): DocumentReader => ({
  get: async () => null,
  find: async <T extends Doc>() => (account ? [account as unknown as T] : []),
  count: async () => 0,
});
const subVendor = (overrides: Partial<SubVendorDoc> = {}): SubVendorDoc => ({
  id: 'sv_1',
  smeCompanyId: 'co_sme',
  email: 'owner@example.test',
  fullName: null,
  walletEmail: null,
  smeSuppliedOnly: true,
  kind: 'PERSON',
  userId: 'usr_1',
  creatorProfileId: 'crp_1',
  createdAt: 't',
  ...overrides,
});
const verified = { email: 'owner-wallet@example.test', active: true, verified: true };

describe('a SubVendor as its SME reads it, and the wallet its rows pay (issue 24)', () => {
  it("pays the account's own wallet only while it is active and verified, without showing it", async () => {
    expect(await subVendorPayee(reader(creator(verified)), subVendor())).toEqual({ fullName: null, walletEmail: null, payoutWallet: verified.email });
    for (const wallet of [{ ...verified, verified: false }, { ...verified, active: false }, null]) {
      expect(await subVendorPayee(reader(creator(wallet)), subVendor())).toEqual({ fullName: null, walletEmail: null, payoutWallet: null });
    }
    expect(await subVendorView(reader(creator(verified)), subVendor())).toMatchObject({ fullName: null, walletEmail: null, hasWallet: true });
  });

  it('shows and pays what the SME supplied', async () => {
    const supplied = subVendor({ fullName: 'Named By SME', walletEmail: 'sme-given@example.test' });
    expect(await subVendorView(reader(creator({ ...verified, verified: false })), supplied)).toMatchObject({
      fullName: 'Named By SME',
      walletEmail: 'sme-given@example.test',
      hasWallet: true,
    });
  });

  it('reads no account for a SubVendor whose name and wallet the SME gave (issue 31: one query less per roster row)', async () => {
    const find = jest.fn(async () => [creator(verified)]);
    const supplied = subVendor({ fullName: 'Named By SME', walletEmail: 'sme-given@example.test' });
    expect(await subVendorPayee({ ...reader(null), find } as DocumentReader, supplied)).toEqual({
      fullName: 'Named By SME',
      walletEmail: 'sme-given@example.test',
      payoutWallet: 'sme-given@example.test',
    });
    expect(find).not.toHaveBeenCalled();
    // Without a wallet of the SME's, the account's verified wallet pays: it is read.
    expect(await subVendorPayee({ ...reader(null), find } as DocumentReader, subVendor({ fullName: 'Named By SME' }))).toEqual({
      fullName: 'Named By SME',
      walletEmail: null,
      payoutWallet: verified.email,
    });
    expect(find).toHaveBeenCalledTimes(1);
  });

  it("hides, and never pays to, the account's name and wallet that SubVendors created before issue 24 copied", async () => {
    const old = subVendor({ smeSuppliedOnly: undefined, fullName: 'Account Owner', walletEmail: 'owner-wallet@example.test' });
    const unverified = reader(creator({ ...verified, verified: false }));
    expect(await subVendorPayee(unverified, old)).toEqual({ fullName: null, walletEmail: null, payoutWallet: null });
    expect(await subVendorView(unverified, old)).toMatchObject({ fullName: null, walletEmail: null, hasWallet: false });
    // A value the SME gave that differs from the account's was the SME's: kept.
    const given = subVendor({ smeSuppliedOnly: undefined, fullName: 'Other Name', walletEmail: 'other@example.test' });
    expect(await subVendorPayee(unverified, given)).toEqual({ fullName: 'Other Name', walletEmail: 'other@example.test', payoutWallet: 'other@example.test' });
  });

  describe("the contractor's own verified wallet (issue 29)", () => {
    const ownDoc = (over: Partial<ContractorWalletDoc> = {}): ContractorWalletDoc => ({
      id: 'usr_1',
      email: 'own@example.test',
      verifiedAt: 't',
      pendingEmail: null,
      codeExpiresAt: null,
      ...over,
    });
    const withOwn = (own: ContractorWalletDoc | null, account: CreatorDoc | null = null) => {
      const get = jest.fn(async <T extends Doc>(collection: string, id: string) => (collection === CONTRACTOR_WALLETS && id === 'usr_1' ? (own as unknown as T) : null));
      return { reader: { ...reader(account), get } as DocumentReader, get };
    };

    it('pays it ahead of the wallet the SME supplied and of the account wallet, with one keyed read', async () => {
      const supplied = subVendor({ fullName: 'Named By SME', walletEmail: 'sme-given@example.test' });
      const { reader: documents, get } = withOwn(ownDoc());
      // What the SME supplied is still what the SME reads; only the wallet paid changes.
      expect(await subVendorPayee(documents, supplied)).toEqual({ fullName: 'Named By SME', walletEmail: 'sme-given@example.test', payoutWallet: 'own@example.test' });
      expect(get).toHaveBeenCalledTimes(1);
      expect(await subVendorPayee(withOwn(ownDoc(), creator(verified)).reader, subVendor())).toMatchObject({ payoutWallet: 'own@example.test' });
    });

    it('falls back to the SME-supplied wallet while it has none, or only one waiting for its code', async () => {
      const supplied = subVendor({ fullName: 'Named By SME', walletEmail: 'sme-given@example.test' });
      for (const own of [null, ownDoc({ email: null, verifiedAt: null, pendingEmail: 'pending@example.test', codeExpiresAt: 't' })]) {
        expect(await subVendorPayee(withOwn(own).reader, supplied)).toMatchObject({ payoutWallet: 'sme-given@example.test' });
      }
      // A SubVendor without an account has no own wallet to read: nothing is read for it.
      const { reader: documents, get } = withOwn(ownDoc());
      expect(await subVendorPayee(documents, subVendor({ userId: null, walletEmail: 'sme-given@example.test' }))).toMatchObject({ payoutWallet: 'sme-given@example.test' });
      expect(get).not.toHaveBeenCalled();
    });
  });
});
