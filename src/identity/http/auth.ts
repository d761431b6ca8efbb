import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AUTH_REQUIREMENT, Public, ROLE_REQUIREMENT } from '../../platform/http/route-auth';
import type { Principal, Scope } from '../domain/principal';
import type { Role } from '../domain/role';

export { AUTH_REQUIREMENT, Public, ROLE_REQUIREMENT };

/** Which credentials a route takes. Every route declares one; a route that forgets is session-only. */
export type AuthRequirement = { kind: 'public' } | { kind: 'session' } | { kind: 'api_key'; scope: Scope } | { kind: 'api_key_or_session'; scope: Scope | null };

export const SessionAuth = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'session' } satisfies AuthRequirement);
export const ApiKeyAuth = (scope: Scope) => SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key', scope } satisfies AuthRequirement);
export const ApiKeyOrSessionAuth = (scope: Scope) => SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key_or_session', scope } satisfies AuthRequirement);
/** A session, or an API key of any scope (reads every integration needs, such as the company balance). */
export const AnyApiKeyOrSessionAuth = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key_or_session', scope: null } satisfies AuthRequirement);

/**
 * The member roles a session may call the route (or every route of the controller) with: one line next
 * to the credential, `@Roles(...FINANCE)`. Without it a read admits every role and a write owner and admin
 * (role.ts `admittedRoles`). API keys are not members: their scopes decide, roles do not apply.
 */
export const Roles = (...roles: Role[]) => SetMetadata(ROLE_REQUIREMENT, roles);

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The authenticated caller of the current request (set by the auth guard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
