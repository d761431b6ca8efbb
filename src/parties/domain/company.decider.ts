import { assertNever, Decider } from '../../platform/domain/decider';
import { CommandMetadata } from '../../platform/domain/command';
import { SplitSettingsForSelfError } from './parties.errors';
import { CompanyApprovalPolicySet, CompanyEvent } from './parties.events';

export type CompanyCommand =
  | { type: 'SetNetTerms'; data: { companyId: string; netTermsDays: number }; metadata: CommandMetadata }
  | { type: 'SetSplitSettings'; data: { enterpriseCompanyId: string; smeCompanyId: string; autoAccept: boolean; coverFees: boolean }; metadata: CommandMetadata }
  | { type: 'SetApprovalPolicy'; data: Omit<CompanyApprovalPolicySet['data'], 'setAt'>; metadata: CommandMetadata };

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
        return setNetTerms(command.data, state, command.metadata);
      case 'SetSplitSettings':
        return setSplitSettings(command.data, state, command.metadata);
      case 'SetApprovalPolicy':
        return setApprovalPolicy(command.data, command.metadata);
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
function setApprovalPolicy(data: Extract<CompanyCommand, { type: 'SetApprovalPolicy' }>['data'], meta: CommandMetadata): CompanyEvent[] {
  if (data.enterpriseCompanyId === data.smeCompanyId) throw new SplitSettingsForSelfError();
  return [{ type: 'company.approval_policy.set', data: { ...data, setAt: meta.now } }];
}

function setNetTerms(data: Extract<CompanyCommand, { type: 'SetNetTerms' }>['data'], state: CompanyState, meta: CommandMetadata): CompanyEvent[] {
  if (data.netTermsDays === state.netTermsDays) return [];
  return [{ type: 'company.net_terms.set', data: { companyId: data.companyId, netTermsDays: data.netTermsDays, setAt: meta.now } }];
}

function setSplitSettings(data: Extract<CompanyCommand, { type: 'SetSplitSettings' }>['data'], state: CompanyState, meta: CommandMetadata): CompanyEvent[] {
  if (data.enterpriseCompanyId === data.smeCompanyId) throw new SplitSettingsForSelfError();
  const current = state.splitSettings.get(data.smeCompanyId);
  if (current && current.autoAccept === data.autoAccept && current.coverFees === data.coverFees) return [];
  return [{ type: 'company.split_settings.set', data: { ...data, setAt: meta.now } }];
}
