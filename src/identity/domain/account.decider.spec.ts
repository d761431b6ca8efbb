import { given } from '../../../test/support/given-when-then';
import { accountDecider, AccountCommand } from './account.decider';
import { AccountEvent } from './identity.events';

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T00:00:00.000Z';

const register: AccountCommand = {
  type: 'RegisterAccount',
  data: { companyId: 'co_1', companyName: 'Acme', userId: 'usr_1', email: 'a@acme.test', passwordHash: 'h' },
  metadata: { now: NOW, actor: 'user:usr_1' },
};
const provision: AccountCommand = {
  type: 'ProvisionAccount',
  data: { companyId: 'co_2', companyName: 'a@acme.test', userId: 'usr_2', email: 'a@acme.test' },
  metadata: { now: LATER, actor: 'system' },
};

const companyRegistered: AccountEvent = { type: 'company.registered', data: { companyId: 'co_1', name: 'Acme', registeredAt: NOW } };
/** A password sign-up since issue 24: unverified until its link is followed. */
const signedUp: AccountEvent[] = [
  companyRegistered,
  { type: 'user.registered', data: { userId: 'usr_1', companyId: 'co_1', email: 'a@acme.test', passwordHash: 'h', registeredAt: NOW, emailVerified: false } },
];
/** A sign-up stored before issue 24: no emailVerified field, so it counts as verified. */
const signedUpBefore: AccountEvent[] = [
  companyRegistered,
  { type: 'user.registered', data: { userId: 'usr_1', companyId: 'co_1', email: 'a@acme.test', passwordHash: 'h', registeredAt: NOW } },
];
const verified: AccountEvent = { type: 'user.email_verified', data: { userId: 'usr_1', companyId: 'co_1', verifiedAt: LATER } };
const provisioned: AccountEvent[] = [
  { type: 'company.registered', data: { companyId: 'co_2', name: 'a@acme.test', registeredAt: LATER } },
  { type: 'user.registered', data: { userId: 'usr_2', companyId: 'co_2', email: 'a@acme.test', passwordHash: null, registeredAt: LATER } },
];

describe('account decider', () => {
  it('registers the company and its first user together, unverified when it has a password', () => {
    given(accountDecider).when(register).then(signedUp);
  });

  it('refuses a second registration of the same email', () => {
    given(accountDecider, ...signedUp)
      .when(register)
      .thenFails('EMAIL_ALREADY_REGISTERED');
    given(accountDecider, ...provisioned)
      .when(register)
      .thenFails('EMAIL_ALREADY_REGISTERED');
  });

  describe('provisioning for a roster email (spec 4.5)', () => {
    it('provisions a passwordless account (verified: only the address can sign in to it) when there is none', () => {
      given(accountDecider).when(provision).then(provisioned);
    });

    it('releases an unverified sign-up and provisions the address for its real owner', () => {
      given(accountDecider, ...signedUp)
        .when(provision)
        .then([{ type: 'user.email_released', data: { userId: 'usr_1', companyId: 'co_1', releasedAt: LATER } }, ...provisioned]);
    });

    it('leaves a verified account alone (the caller attaches it), including one registered before verification existed', () => {
      given(accountDecider, ...signedUp, verified)
        .when(provision)
        .thenFails('EMAIL_ALREADY_REGISTERED');
      given(accountDecider, ...signedUpBefore)
        .when(provision)
        .thenFails('EMAIL_ALREADY_REGISTERED');
      given(accountDecider, ...provisioned)
        .when(provision)
        .thenFails('EMAIL_ALREADY_REGISTERED');
    });
  });

  describe('verifying the address', () => {
    const verify = (userId: string): AccountCommand => ({ type: 'VerifyEmail', data: { userId }, metadata: { now: LATER, actor: 'system' } });

    it('records the verification once', () => {
      given(accountDecider, ...signedUp)
        .when(verify('usr_1'))
        .then([verified]);
      given(accountDecider, ...signedUp, verified)
        .when(verify('usr_1'))
        .then([]);
      given(accountDecider, ...signedUpBefore)
        .when(verify('usr_1'))
        .then([]);
    });

    it('refuses the link of a user that lost the address, or of no account', () => {
      given(accountDecider, ...signedUp, { type: 'user.email_released', data: { userId: 'usr_1', companyId: 'co_1', releasedAt: LATER } }, ...provisioned)
        .when(verify('usr_1'))
        .thenFails('MAGIC_LINK_INVALID');
      given(accountDecider).when(verify('usr_1')).thenFails('MAGIC_LINK_INVALID');
    });
  });

  describe('resetting the password (issue 29 item 9)', () => {
    const reset = (userId: string): AccountCommand => ({ type: 'ResetPassword', data: { userId, passwordHash: 'h2' }, metadata: { now: LATER, actor: `user:${userId}` } });
    const passwordReset: AccountEvent = { type: 'user.password_reset', data: { userId: 'usr_1', companyId: 'co_1', passwordHash: 'h2', resetAt: LATER } };

    it('records the new password of a verified account, including one registered before verification existed', () => {
      given(accountDecider, ...signedUp, verified)
        .when(reset('usr_1'))
        .then([passwordReset]);
      given(accountDecider, ...signedUpBefore)
        .when(reset('usr_1'))
        .then([passwordReset]);
    });

    it('also proves the address of an unverified sign-up: the link was emailed to it', () => {
      given(accountDecider, ...signedUp)
        .when(reset('usr_1'))
        .then([passwordReset, { ...verified, data: { ...verified.data, verifiedAt: LATER } }]);
    });

    it('can reset again: each reset is its own fact, the latest hash counts', () => {
      given(accountDecider, ...signedUp, verified, passwordReset)
        .when(reset('usr_1'))
        .then([passwordReset]);
    });

    it('refuses the link of a user that lost the address, or of no account', () => {
      given(accountDecider, ...signedUp, { type: 'user.email_released', data: { userId: 'usr_1', companyId: 'co_1', releasedAt: LATER } }, ...provisioned)
        .when(reset('usr_1'))
        .thenFails('PASSWORD_RESET_INVALID');
      given(accountDecider).when(reset('usr_1')).thenFails('PASSWORD_RESET_INVALID');
    });
  });
});
