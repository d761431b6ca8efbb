import type { SecurityRequirementObject } from '@nestjs/swagger';
import type { OpenApiCredentials } from '../../platform/http/openapi';
import { CredentialNotAllowedError, CsrfOriginMismatchError, MissingScopeError, UnauthenticatedError } from '../domain/identity.errors';
import type { AuthRequirement } from './auth';

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
  describe(value) {
    const requirement = value as AuthRequirement;
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
          summary: `an API key with scope ${requirement.scope} (a session is refused with 403)`,
          apiKeyScope: requirement.scope,
        };
      case 'api_key_or_session':
        if (requirement.scope === null)
          return { security: [API_KEY, SESSION], errors: [UnauthenticatedError, CsrfOriginMismatchError], summary: 'an API key of any scope, or a session', apiKeyScope: 'any' };
        return {
          security: [API_KEY, SESSION],
          errors: [UnauthenticatedError, CsrfOriginMismatchError, MissingScopeError],
          summary: `an API key with scope ${requirement.scope}, or a session`,
          apiKeyScope: requirement.scope,
        };
      default: {
        const unknown: never = requirement;
        throw new Error(`unknown auth requirement ${JSON.stringify(unknown)}`);
      }
    }
  },
};
