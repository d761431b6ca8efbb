/**
 * A member's role in a company (issue 30). One per member; what a session may do depends on it, what an
 * API key may do on its scopes. A company's first user (the one that signed it up, or the account the
 * service made for a roster email) is its owner without any event saying so: it is derived from
 * `user.registered`, so companies from before roles keep working.
 */
export type Role = 'owner' | 'admin' | 'developer' | 'finance' | 'viewer';
export const ROLES: readonly Role[] = ['owner', 'admin', 'developer', 'finance', 'viewer'];

/** Every role: a route any member may call (reads, signing out, switching company). */
export const ANY_ROLE: readonly Role[] = ROLES;
/** The default of a write that declares nothing: owner and admin. */
export const MANAGERS: readonly Role[] = ['owner', 'admin'];
/** Keys, webhooks and other integration settings. */
export const DEVELOPERS: readonly Role[] = ['owner', 'admin', 'developer'];
/** Money movement: approve or reject incoming Splits, pay out rows, release margins, Payout Embed, refunds, withdrawals, bills. */
export const FINANCE: readonly Role[] = ['owner', 'admin', 'finance'];
/** Members and ownership. */
export const OWNERS: readonly Role[] = ['owner'];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The roles a route admits: what it declares (`@Roles(...)`), else a default from its method: a read
 * admits every role, a write owner and admin only (a route added without a thought about roles is
 * closed to developer, finance and viewer rather than open to them).
 */
export function admittedRoles(declared: readonly Role[] | undefined, method: string): readonly Role[] {
  if (declared) return declared;
  return READ_METHODS.has(method.toUpperCase()) ? ANY_ROLE : MANAGERS;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
