import { assertNever, Decider } from '../../platform/domain/decider';
import { SplitSettingsForSelfError } from './parties.errors';
import { CompanyApprovalPolicySet, CompanyEvent } from './parties.events';

export type CompanyCommand =
  | { type: 'SetNetTerms'; data: { companyId: string; netTermsDays: number; now: string } }
  | { type: 'SetSplitSettings'; data: { enterpriseCompanyId: string; smeCompanyId: string; autoAccept: boolean; coverFees: boolean; now: string } }
  | { type: 'SetApprovalPolicy'; data: Omit<CompanyApprovalPolicySet['data'], 'setAt'> & { now: string } };

export interface CompanyState {
  netTermsDays: number;
  /** Per SME company id. A Map: an id like `__proto__` must not find anything inherited. */
  splitSettings: ReadonlyMap<string, { autoAccept: boolean; coverFees: boolean }>;
}

export const DEFAULT_NET_TERMS_DAYS = 30;

/** Company-level settings: net terms and, as an enterprise, per-SME split settings. Unchanged values append nothing. */
export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  initialState: () => ({ netTermsDays: DEFAULT_NET_TERMS_DAYS, splitSettings: new Map() }),
  decide(command, state) {
    switch (command.type) {
      case 'SetNetTerms':
        return setNetTerms(command.data, state);
      case 'SetSplitSettings':
        return setSplitSettings(command.data, state);
      case 'SetApprovalPolicy':
        return setApprovalPolicy(command.data);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'company.net_terms.set':
        return { ...state, netTermsDays: event.data.netTermsDays };
      case 'company.split_settings.set':
        return {
          ...state,
          splitSettings: new Map(state.splitSettings).set(event.data.smeCompanyId, { autoAccept: event.data.autoAccept, coverFees: event.data.coverFees }),
        };
      case 'company.approval_policy.set':
        return state;
      default:
        return assertNever(event);
    }
  },
};

/** Issue 30: per SME or the enterprise's default; an enterprise sets no policy for itself. */
function setApprovalPolicy(data: Extract<CompanyCommand, { type: 'SetApprovalPolicy' }>['data']): CompanyEvent[] {
  if (data.enterpriseCompanyId === data.smeCompanyId) throw new SplitSettingsForSelfError();
  const { now, ...policy } = data;
  return [{ type: 'company.approval_policy.set', data: { ...policy, setAt: now } }];
}

function setNetTerms(data: Extract<CompanyCommand, { type: 'SetNetTerms' }>['data'], state: CompanyState): CompanyEvent[] {
  if (data.netTermsDays === state.netTermsDays) return [];
  return [{ type: 'company.net_terms.set', data: { companyId: data.companyId, netTermsDays: data.netTermsDays, setAt: data.now } }];
}

function setSplitSettings(data: Extract<CompanyCommand, { type: 'SetSplitSettings' }>['data'], state: CompanyState): CompanyEvent[] {
  if (data.enterpriseCompanyId === data.smeCompanyId) throw new SplitSettingsForSelfError();
  const current = state.splitSettings.get(data.smeCompanyId);
  if (current && current.autoAccept === data.autoAccept && current.coverFees === data.coverFees) return [];
  const { now, ...settings } = data;
  return [{ type: 'company.split_settings.set', data: { ...settings, setAt: now } }];
}
