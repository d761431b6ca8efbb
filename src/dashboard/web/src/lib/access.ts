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
  { path: '/team', label: 'Team', icon: 'users', for: ['company'] },
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

export const areasFor = (viewer: Viewer) => AREAS.filter((area) => covers(area.for, viewer.parties) && roleOpens(viewer, area.path));

/** The page a viewer lands on after signing in. */
export const homeOf = (viewer: Viewer) => (viewer.parties.includes('contractor') ? '/earnings' : '/');

/** May this viewer open the page at `path`? Unknown paths are allowed (the router answers "Page not found"). */
export function canSee(viewer: Viewer, path: string): boolean {
  if (!roleOpens(viewer, path)) return false;
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
  return (
    SPLIT_ACTIONS[sideOf(viewer, split)].includes(action) &&
    WHEN[action](split) &&
    canDo(viewer, SPLIT_ACTION_NEEDS[action]) &&
    // Issue 30: a second approval comes from someone else.
    !(action === 'approve' && split.approvals.some((approval) => approval.approvedBy === `user:${viewer.me.userId}`))
  );
}

/** Where "back" leads from a Split: the SME's list, or the enterprise's Approvals. */
export const splitListOf = (viewer: Viewer, split: Pick<Split, 'smeCompanyId'>) =>
  sideOf(viewer, split) === 'sme' ? { to: '/splits', label: 'Splits' } : { to: '/approvals', label: 'Approvals' };

// ---- Roles (issue 30) -------------------------------------------------------------------------------------------
// A member's role decides which buttons it is shown, on top of its company's parties: the same roles the API
// declares per route (docs/api.md#teams-and-roles), so a button never appears only to fail with ROLE_FORBIDDEN.

export type Role = Me['role'];

/**
 * What a button does, by the roles the API admits for it: `money` moves money (approve, reject, pay out, margins,
 * Payout Embed, bills, refunds, withdrawals, top-ups); `keys` API keys and webhooks; `manage` company settings,
 * sending, revising and cancelling Splits, payment links; `members` inviting, re-roling and removing members.
 */
export type Capability = 'money' | 'keys' | 'manage' | 'members';

const CAPABLE: Record<Capability, readonly Role[]> = {
  money: ['owner', 'admin', 'finance'],
  keys: ['owner', 'admin', 'developer'],
  manage: ['owner', 'admin'],
  members: ['owner'],
};

/** May this member press a button that does `capability`? */
export const canDo = (viewer: Viewer, capability: Capability) => CAPABLE[capability].includes(viewer.me.role);

const SPLIT_ACTION_NEEDS: Record<SplitAction, Capability> = {
  approve: 'money',
  reject: 'money',
  payOutNow: 'money',
  settleMargin: 'money',
  revise: 'manage',
  cancel: 'manage',
};

/** Pages whose every button is of one capability and that hold nothing for the other roles: hidden from them. */
const PAGE_NEEDS: { pattern: RegExp; needs: Capability }[] = [
  { pattern: /^\/(api-keys|webhooks)(\/|$)/, needs: 'keys' },
  { pattern: /^\/splits\/(new|[^/]+\/edit)$/, needs: 'manage' },
];

function roleOpens(viewer: Viewer, path: string): boolean {
  const page = PAGE_NEEDS.find((candidate) => candidate.pattern.test(path));
  return page ? canDo(viewer, page.needs) : true;
}

/** The roles as the Team page offers them, with what each may do (docs/api.md#teams-and-roles). */
export const ROLE_CHOICES: { role: Role; label: string; may: string }[] = [
  { role: 'owner', label: 'Owner', may: 'Everything, members included' },
  { role: 'admin', label: 'Admin', may: 'Everything but members' },
  { role: 'developer', label: 'Developer', may: 'API keys and webhooks; reads everything; moves no money' },
  { role: 'finance', label: 'Finance', may: 'Approves Splits, pays bills and rows, releases margins, payouts; no keys or webhooks' },
  { role: 'viewer', label: 'Viewer', may: 'Reads everything, exports included; changes nothing' },
];
