import { assertNever, Decider } from '../../platform/domain/decider';
import { EmailAlreadyRegisteredError } from './identity.errors';
import { AccountEvent } from './identity.events';

export type AccountCommand = {
  type: 'RegisterAccount';
  data: { companyId: string; companyName: string; userId: string; email: string; passwordHash: string | null; now: string };
};

export type AccountState = { status: 'none' } | { status: 'registered'; companyId: string; userId: string };

/** One account stream per email: signing up twice with an email is a conflict, decided by the stream. */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ status: 'none' }),
  decide(command, state) {
    switch (command.type) {
      case 'RegisterAccount':
        return registerAccount(command.data, state);
      default:
        return assertNever(command.type);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'company.registered':
        return state;
      case 'user.registered':
        return { status: 'registered', companyId: event.data.companyId, userId: event.data.userId };
      default:
        return assertNever(event);
    }
  },
};

function registerAccount(data: Extract<AccountCommand, { type: 'RegisterAccount' }>['data'], state: AccountState): AccountEvent[] {
  if (state.status !== 'none') throw new EmailAlreadyRegisteredError();
  return [
    { type: 'company.registered', data: { companyId: data.companyId, name: data.companyName, registeredAt: data.now } },
    {
      type: 'user.registered',
      data: { userId: data.userId, companyId: data.companyId, email: data.email, passwordHash: data.passwordHash, registeredAt: data.now },
    },
  ];
}
