/** What an API key may do. A session may do everything its company may. */
export type Scope = 'checkout:write' | 'split:write' | 'payout:write';
export const SCOPES: readonly Scope[] = ['checkout:write', 'split:write', 'payout:write'];

/** The authenticated caller of a request: a logged-in user's session or a company's API key. */
export type Principal = { kind: 'session'; companyId: string; userId: string; sessionId: string } | { kind: 'api_key'; companyId: string; keyId: string; scopes: Scope[] };

/** Actor string recorded in event metadata. */
export function actorOf(principal: Principal): string {
  return principal.kind === 'session' ? `user:${principal.userId}` : `api_key:${principal.keyId}`;
}
