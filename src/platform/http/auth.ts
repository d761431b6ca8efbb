import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export type Scope = 'checkout:write' | 'split:write' | 'payout:write';
export const SCOPES: readonly Scope[] = ['checkout:write', 'split:write', 'payout:write'];

export type Principal =
  | { kind: 'session'; companyId: string; userId: string; sessionId: string }
  | { kind: 'api_key'; companyId: string; keyId: string; scopes: Scope[] };

/** Which credentials a route takes. Every route declares one; a route that forgets is session-only. */
export type AuthRequirement =
  | { kind: 'public' }
  | { kind: 'session' }
  | { kind: 'api_key'; scope: Scope }
  | { kind: 'api_key_or_session'; scope: Scope };

export const AUTH_REQUIREMENT = 'paysplit:auth';

export const Public = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'public' } satisfies AuthRequirement);
export const SessionAuth = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'session' } satisfies AuthRequirement);
export const ApiKeyAuth = (scope: Scope) => SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key', scope } satisfies AuthRequirement);
export const ApiKeyOrSessionAuth = (scope: Scope) =>
  SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key_or_session', scope } satisfies AuthRequirement);

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The authenticated caller of the current request (set by the auth guard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});

/** Actor string recorded in event metadata. */
export function actorOf(principal: Principal): string {
  return principal.kind === 'session' ? `user:${principal.userId}` : `api_key:${principal.keyId}`;
}

/** Turns a bearer token into a caller, or null when the token is unknown, expired or revoked. */
export interface CredentialResolver {
  resolve(token: string): Promise<Principal | null>;
}

export const CREDENTIAL_RESOLVER = Symbol('CREDENTIAL_RESOLVER');
