import { given } from '../../../test/support/given-when-then';
import { SubVendorCreated, SubVendorEvent } from './parties.events';
import { SubVendorCommand, subVendorDecider } from './sub-vendor.decider';

const now = '2026-01-01T00:00:00.000Z';
const created: SubVendorCreated = {
  type: 'sub_vendor.created',
  data: {
    subVendorId: 'sv_1',
    smeCompanyId: 'co_sme',
    email: 'dana@contractor.test',
    fullName: 'Dana',
    walletEmail: null,
    kind: 'PERSON',
    userId: 'usr_1',
    creatorProfileId: null,
    createdAt: now,
  },
};
const setWallet = (walletEmail: string, smeCompanyId = 'co_sme'): SubVendorCommand => ({
  type: 'SetWalletEmail',
  data: { subVendorId: 'sv_1', smeCompanyId, walletEmail },
  metadata: { now, actor: 'system' },
});
const walletSet = (walletEmail: string): SubVendorEvent => ({
  type: 'sub_vendor.wallet_email.set',
  data: { subVendorId: 'sv_1', smeCompanyId: 'co_sme', walletEmail, setAt: now },
});

describe('sub-vendor decider', () => {
  it('creates once; creating again decides nothing', () => {
    given(subVendorDecider)
      .when({ type: 'Create', event: created, metadata: { now, actor: 'system' } })
      .then([created]);
    given(subVendorDecider, created)
      .when({ type: 'Create', event: created, metadata: { now, actor: 'system' } })
      .thenNothing();
  });
  it('adds a wallet email to a SubVendor created without one', () =>
    given(subVendorDecider, created)
      .when(setWallet('dana.wallet@contractor.test'))
      .then([walletSet('dana.wallet@contractor.test')]));
  it('changes it, and setting the same one again decides nothing', () => {
    given(subVendorDecider, created, walletSet('a@wallet.test'))
      .when(setWallet('b@wallet.test'))
      .then([walletSet('b@wallet.test')]);
    given(subVendorDecider, created, walletSet('a@wallet.test')).when(setWallet('a@wallet.test')).thenNothing();
  });
  it("refuses another SME's SubVendor, or an unknown one, as not found", () => {
    given(subVendorDecider, created)
      .when(setWallet('x@wallet.test', 'co_other'))
      .thenFails('SUB_VENDOR_NOT_FOUND', (error) => expect(error.kind).toBe('not_found'));
    given(subVendorDecider).when(setWallet('x@wallet.test')).thenFails('SUB_VENDOR_NOT_FOUND');
  });
  it('folds the latest wallet email into the SubVendor', () => {
    const state = [created, walletSet('a@wallet.test'), walletSet('b@wallet.test')].reduce(subVendorDecider.evolve, subVendorDecider.initialState());
    expect(state.subVendor).toEqual({ ...created.data, walletEmail: 'b@wallet.test' });
  });
});
