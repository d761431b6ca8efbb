import { assertNever, Decider } from '../../platform/domain/decider';
import { CommandMetadata } from '../../platform/domain/command';
import { SubVendorCreated, SubVendorEvent } from './parties.events';
import { SubVendorNotFoundError } from './parties.errors';

export type SubVendorCommand =
  /** Register once: again on an existing SubVendor decides nothing (the caller gets the existing one). */
  | { type: 'Create'; event: SubVendorCreated; metadata: CommandMetadata }
  | { type: 'SetWalletEmail'; data: { subVendorId: string; smeCompanyId: string; walletEmail: string }; metadata: CommandMetadata };

/** The SubVendor as its events made it: the created data with the latest wallet email. */
export type SubVendorState = { subVendor: SubVendorCreated['data'] | null };

/**
 * A SubVendor on an SME's roster. Created once per (SME, email); its wallet email can be added or
 * changed afterwards by the SME that owns it (another SME's id is 404, as for an unknown one). Setting
 * the email it already has decides nothing.
 */
export const subVendorDecider: Decider<SubVendorCommand, SubVendorEvent, SubVendorState> = {
  initialState: () => ({ subVendor: null }),
  decide(command, state) {
    switch (command.type) {
      case 'Create':
        return state.subVendor ? [] : [command.event];
      case 'SetWalletEmail': {
        const { subVendorId, smeCompanyId, walletEmail } = command.data;
        if (!state.subVendor || state.subVendor.smeCompanyId !== smeCompanyId) throw new SubVendorNotFoundError();
        if (state.subVendor.walletEmail === walletEmail) return [];
        return [{ type: 'sub_vendor.wallet_email.set', data: { subVendorId, smeCompanyId, walletEmail, setAt: command.metadata.now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'sub_vendor.created':
        return state.subVendor ? state : { subVendor: event.data };
      case 'sub_vendor.wallet_email.set':
        return state.subVendor ? { subVendor: { ...state.subVendor, walletEmail: event.data.walletEmail } } : state;
      default:
        return assertNever(event);
    }
  },
};
