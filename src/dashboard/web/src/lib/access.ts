import type { Me, Split } from '../api/types';
import type { IconName } from '../components/icons';

/**
 * Who may see which page and press which button: the ONE place the dashboard decides it (issue 29, docs/dashboard.md#who-sees-what).
 * Pages and buttons ask `canSee` / `canDoOnSplit`; nothing else in the app checks an account's kind or side.
 * The API refuses what a party may not do anyway; this keeps a person from being shown it.
 *
 * A company acts as several parties at once: it is always a merchant (Checkout), a platform (Payouts) and a developer
 * (API keys, webhooks); it is an SME once it sends Splits and an enterprise once it is billed or names an AP contact
 * (see `companyParties`). A contractor (magic-link account) is only a contractor.
 * Teams (issue 30) add the member's role here: `canSee` and `canDoOnSplit` are where a role check goes.
 */
export type Party = 'sme' | 'enterprise' | 'merchant' | 'platform' | 'developer' | 'contractor';

/** `company`: every company party (pages any company uses whatever it does). */
export type Audience = Party | 'company';

export interface Viewer {
  me: Me;
  parties: readonly Party[];
}

export interface Area {
  path: string;
  label: string;
  icon: IconName;
  for: Audience[];
}

/** The navigation, in order; a page's address is its area's path or below it. */
export const AREAS: Area[] = [
  { path: '/', label: 'Home', icon: 'home', for: ['company'] },
  { path: '/splits', label: 'Splits', icon: 'split', for: ['sme'] },
  { path: '/approvals', label: 'Approvals', icon: 'inbox', for: ['enterprise'] },
  { path: '/bills', label: 'Bills', icon: 'wallet', for: ['enterprise'] },
  { path: '/checkout', label: 'Checkout', icon: 'cart', for: ['merchant'] },
  { path: '/payouts', label: 'Payouts', icon: 'send', for: ['platform'] },
  { path: '/balance', label: 'Balance', icon: 'wallet', for: ['company', 'contractor'] },
  { path: '/api-keys', label: 'API keys', icon: 'key', for: ['developer'] },
  { path: '/webhooks', label: 'Webhooks', icon: 'webhook', for: ['developer'] },
  { path: '/earnings', label: 'Earnings', icon: 'wallet', for: ['contractor'] },
];

/** Pages that are not in the navigation, and who may open them. */
const PAGES: { pattern: RegExp; for: Audience[] }[] = [
  { pattern: /^\/splits\/new$/, for: ['sme'] },
  // A Split's detail page: the SME that sent it or the enterprise it bills (each sees its own buttons).
  { pattern: /^\/splits\/[^/]+(\/edit)?$/, for: ['sme', 'enterprise'] },
];

const COMPANY_PARTIES: readonly Party[] = ['sme', 'enterprise', 'merchant', 'platform', 'developer'];

const covers = (audience: readonly Audience[], parties: readonly Party[]) =>
  audience.some((who) => (who === 'company' ? parties.some((p) => COMPANY_PARTIES.includes(p)) : parties.includes(who)));

/** What a company has done so far, read once per sign-in (GET .../splits/outgoing, /incoming, /business-profiles). */
export interface CompanyFacts {
  splitsSent: number;
  splitsReceived: number;
  apContacts: number;
}

/**
 * A company sends Splits (SME) or is billed (enterprise); until it has done either it may be both. An enterprise
 * (billed, or with an AP contact to be billed at) that never sent a Split is not shown the SME's pages, and an
 * SME never billed and with no AP contact is not shown Approvals.
 */
export function companyParties(facts: CompanyFacts): Party[] {
  const enterprise = facts.splitsReceived > 0 || facts.apContacts > 0;
  const sme = facts.splitsSent > 0;
  return [...(sme || !enterprise ? (['sme'] as const) : []), ...(enterprise || !sme ? (['enterprise'] as const) : []), 'merchant', 'platform', 'developer'];
}

export function partiesOf(me: Me, facts: CompanyFacts | null): Party[] {
  if (me.kind === 'contractor') return ['contractor'];
  return facts ? companyParties(facts) : [...COMPANY_PARTIES];
}

export const areasFor = (viewer: Viewer) => AREAS.filter((area) => covers(area.for, viewer.parties));

/** The page a viewer lands on after signing in. */
export const homeOf = (viewer: Viewer) => (viewer.parties.includes('contractor') ? '/earnings' : '/');

/** May this viewer open the page at `path`? Unknown paths are allowed (the router answers "Page not found"). */
export function canSee(viewer: Viewer, path: string): boolean {
  const page = PAGES.find((candidate) => candidate.pattern.test(path));
  if (page) return covers(page.for, viewer.parties);
  const area = [...AREAS].reverse().find((candidate) => (candidate.path === '/' ? path === '/' : path === candidate.path || path.startsWith(`${candidate.path}/`)));
  return area ? covers(area.for, viewer.parties) : true;
}

/** The viewer's side of one Split: the SME that sent it or the enterprise it bills (the SME first, as the API reads it). */
export type SplitSide = 'sme' | 'enterprise';
export const sideOf = (viewer: Viewer, split: Pick<Split, 'smeCompanyId'>): SplitSide => (split.smeCompanyId === viewer.me.companyId ? 'sme' : 'enterprise');

export type SplitAction = 'approve' | 'reject' | 'revise' | 'cancel' | 'payOutNow' | 'settleMargin';

/** Which side may do what on a Split (the API checks the same: docs/api.md). */
const SPLIT_ACTIONS: Record<SplitSide, readonly SplitAction[]> = {
  sme: ['revise', 'cancel', 'payOutNow', 'settleMargin'],
  enterprise: ['approve', 'reject'],
};

/** In which Split statuses an action is possible (the API answers 409 otherwise). */
const WHEN: Record<SplitAction, (split: Split) => boolean> = {
  approve: (s) => s.status === 'PENDING_APPROVAL',
  reject: (s) => s.status === 'PENDING_APPROVAL',
  revise: (s) => s.status === 'PENDING_APPROVAL',
  cancel: (s) => s.status === 'PENDING_APPROVAL',
  // POST .../distributions/:id/payout: the Split FUNDED or SETTLING (and the row not started: checked per row).
  payOutNow: (s) => s.status === 'FUNDED' || s.status === 'SETTLING',
  settleMargin: (s) => (s.marginStatus === 'HELD' || s.marginStatus === 'PENDING') && s.status !== 'REJECTED' && s.status !== 'CANCELLED',
};

export function canDoOnSplit(viewer: Viewer, split: Split, action: SplitAction): boolean {
  return SPLIT_ACTIONS[sideOf(viewer, split)].includes(action) && WHEN[action](split);
}

/** Where "back" leads from a Split: the SME's list, or the enterprise's Approvals. */
export const splitListOf = (viewer: Viewer, split: Pick<Split, 'smeCompanyId'>) =>
  sideOf(viewer, split) === 'sme' ? { to: '/splits', label: 'Splits' } : { to: '/approvals', label: 'Approvals' };
