import { given } from '../../../test/support/given-when-then';
import { accountDecider, AccountCommand } from './account.decider';
import { AccountEvent } from './identity.events';

const register: AccountCommand = {
  type: 'RegisterAccount',
  data: { companyId: 'co_1', companyName: 'Acme', userId: 'usr_1', email: 'a@acme.test', passwordHash: 'h', now: '2026-01-01T00:00:00.000Z' },
};

const registered: AccountEvent[] = [
  { type: 'company.registered', data: { companyId: 'co_1', name: 'Acme', registeredAt: '2026-01-01T00:00:00.000Z' } },
  {
    type: 'user.registered',
    data: { userId: 'usr_1', companyId: 'co_1', email: 'a@acme.test', passwordHash: 'h', registeredAt: '2026-01-01T00:00:00.000Z' },
  },
];

describe('account decider', () => {
  it('registers the company and its first user together', () => {
    given(accountDecider).when(register).then(registered);
  });

  it('refuses a second registration of the same email', () => {
    given(accountDecider, ...registered)
      .when(register)
      .thenFails('EMAIL_ALREADY_REGISTERED');
  });
});
