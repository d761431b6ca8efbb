import type { SecurityRequirementObject } from '@nestjs/swagger';
import type { OpenApiCredentials } from '../../platform/http/openapi';
import { CredentialNotAllowedError, CsrfOriginMismatchError, MissingScopeError, UnauthenticatedError } from '../domain/identity.errors';
import type { AuthRequirement } from './auth';
import { RoleForbiddenError } from '../domain/members.errors';
import { READ_SCOPE_OF } from '../domain/principal';
import { admittedRoles, ANY_ROLE, Role } from '../domain/role';

/**
 * How each credential requirement (SessionAuth, ApiKeyAuth, ...) reads in the OpenAPI document: the
 * security schemes, and the 401/403 codes the auth guard (auth.guard.ts) answers for it. A session can
 * also come as the dashboard's cookie; such a call from a foreign Origin is refused (403 CSRF_ORIGIN_MISMATCH).
 */
const API_KEY: SecurityRequirementObject = { apiKey: [] };
const SESSION: SecurityRequirementObject = { session: [] };

export const openApiCredentials: OpenApiCredentials = {
  schemes: {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sk_...',
      description:
        'An API key (POST /api/commerce/api-keys) as Authorization: Bearer sk_...; an operation that takes one names the scope it needs in x-api-key-scope ("any" for a key of any scope)',
    },
    session: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sess_...',
      description:
        "A session token (POST /api/auth/signup or /api/auth/login) as Authorization: Bearer sess_...; in a browser, the HttpOnly paysplit_session cookie those calls set, from the service's own Origin only (403 CSRF_ORIGIN_MISMATCH)",
    },
  },
  describe(value, route) {
    const described = describeCredential(value as AuthRequirement, route.method === 'GET');
    if (!described || !described.security.includes(SESSION)) return described;
    // Issue 30: the member roles a session needs, in x-roles; ROLE_FORBIDDEN where a role is left out.
    const roles = admittedRoles(route.roles as Role[] | undefined, route.method);
    const everyRole = ANY_ROLE.every((role) => roles.includes(role));
    return {
      ...described,
      errors: everyRole ? described.errors : [...described.errors, RoleForbiddenError],
      summary: `${described.summary}; a session's member role: ${everyRole ? 'any' : roles.join(', ')}`,
      extensions: { 'x-roles': [...roles] },
    };
  },
};

/** A `:write` scope on a read also admits its `:read` scope: `split:write or split:read`. */
function scopeText(scope: string, isRead: boolean): string {
  const read = READ_SCOPE_OF[scope as keyof typeof READ_SCOPE_OF];
  return isRead && read ? `${scope} or ${read}` : scope;
}

function describeCredential(requirement: AuthRequirement, isRead: boolean): ReturnType<OpenApiCredentials['describe']> {
  switch (requirement.kind) {
    case 'public':
      return null;
    case 'session':
      return {
        security: [SESSION],
        errors: [UnauthenticatedError, CredentialNotAllowedError, CsrfOriginMismatchError],
        summary: 'a session (an API key is refused with 403)',
        apiKeyScope: null,
      };
    case 'api_key':
      return {
        security: [API_KEY],
        errors: [UnauthenticatedError, CredentialNotAllowedError, MissingScopeError],
        summary: `an API key with scope ${scopeText(requirement.scope, isRead)} (a session is refused with 403)`,
        apiKeyScope: requirement.scope,
      };
    case 'api_key_or_session':
      if (requirement.scope === null)
        return { security: [API_KEY, SESSION], errors: [UnauthenticatedError, CsrfOriginMismatchError], summary: 'an API key of any scope, or a session', apiKeyScope: 'any' };
      return {
        security: [API_KEY, SESSION],
        errors: [UnauthenticatedError, CsrfOriginMismatchError, MissingScopeError],
        summary: `an API key with scope ${scopeText(requirement.scope, isRead)}, or a session`,
        apiKeyScope: requirement.scope,
      };
    default: {
      const unknown: never = requirement;
      throw new Error(`unknown auth requirement ${JSON.stringify(unknown)}`);
    }
  }
}
