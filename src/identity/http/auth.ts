import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AUTH_REQUIREMENT, Public } from '../../platform/http/route-auth';
import type { Principal, Scope } from '../domain/principal';

export { AUTH_REQUIREMENT, Public };

/** Which credentials a route takes. Every route declares one; a route that forgets is session-only. */
export type AuthRequirement = { kind: 'public' } | { kind: 'session' } | { kind: 'api_key'; scope: Scope } | { kind: 'api_key_or_session'; scope: Scope | null };

export const SessionAuth = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'session' } satisfies AuthRequirement);
export const ApiKeyAuth = (scope: Scope) => SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key', scope } satisfies AuthRequirement);
export const ApiKeyOrSessionAuth = (scope: Scope) => SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key_or_session', scope } satisfies AuthRequirement);
/** A session, or an API key of any scope (reads every integration needs, such as the company balance). */
export const AnyApiKeyOrSessionAuth = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'api_key_or_session', scope: null } satisfies AuthRequirement);

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The authenticated caller of the current request (set by the auth guard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
