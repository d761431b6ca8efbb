import type { Role } from './role';

/**
 * What an API key may do. A `:read` scope reads what its `:write` scope reads (GET routes); a `:write`
 * scope keeps reading too, as the spec says (issue 30). A session may do what its member's role admits.
 */
export type Scope = 'checkout:write' | 'split:write' | 'payout:write' | 'checkout:read' | 'split:read' | 'payout:read';
export const SCOPES: readonly Scope[] = ['checkout:write', 'split:write', 'payout:write', 'checkout:read', 'split:read', 'payout:read'];

/** The `:read` scope that admits the reads of a `:write` scope. */
export const READ_SCOPE_OF: Partial<Record<Scope, Scope>> = { 'checkout:write': 'checkout:read', 'split:write': 'split:read', 'payout:write': 'payout:read' };

/** Whether a key with `scopes` may call a route that asks for `required`; a read (GET) also takes the matching `:read` scope. */
export function scopesAdmit(scopes: readonly Scope[], required: Scope, isRead: boolean): boolean {
  if (scopes.includes(required)) return true;
  const read = READ_SCOPE_OF[required];
  return isRead && read !== undefined && scopes.includes(read);
}

/**
 * The authenticated caller of a request: a logged-in user's session (for one company, chosen at sign-in
 * or switched to, with the user's role in it) or a company's API key.
 */
export type Principal =
  { kind: 'session'; companyId: string; userId: string; sessionId: string; role: Role } | { kind: 'api_key'; companyId: string; keyId: string; scopes: Scope[] };

/** Actor string recorded in event metadata. */
export function actorOf(principal: Principal): string {
  return principal.kind === 'session' ? `user:${principal.userId}` : `api_key:${principal.keyId}`;
}
