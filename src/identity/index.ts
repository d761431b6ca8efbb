// Public API of the identity module: who the caller is (Principal, Scope), how a route declares the
// credential it takes, the guard that enforces it, and the event metadata of an HTTP command.
export { actorOf, SCOPES, type Principal, type Scope } from './domain/principal';
export {
  AnyApiKeyOrSessionAuth,
  ApiKeyAuth,
  ApiKeyOrSessionAuth,
  CurrentPrincipal,
  Public,
  Roles,
  SessionAuth,
  type AuthenticatedRequest,
  type AuthRequirement,
} from './http/auth';
export { ANY_ROLE, DEVELOPERS, FINANCE, MANAGERS, OWNERS, ROLES, type Role } from './domain/role';
export { actorNames, membersOfCompany, roleIn } from './application/members.queries';
export { AuthGuard } from './http/auth.guard';
export { openApiCredentials } from './http/auth.openapi';
export { commandContext } from './http/command-context';
export { CREDENTIAL_RESOLVER, type CredentialResolver } from './application/credential-resolver.port';
export { IdentityModule } from './identity.module';
export { AccountDirectory } from './application/account-directory';
export { MagicLinks } from './application/magic-links';
export { Outbox, type OutboxMessage } from './application/outbox';
export { apiKeyByHash, company, hasVerifiedEmail, userByEmail, userEmail } from './application/identity.queries';
export { EmailNotVerifiedError } from './domain/identity.errors';
export { API_KEY_STREAM_PREFIX, type ApiKeyEvent } from './domain/identity.events';
