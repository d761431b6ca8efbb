import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CREDENTIAL_RESOLVER, CredentialResolver } from '../application/credential-resolver.port';
import { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { CredentialNotAllowedError, CsrfOriginMismatchError, MissingScopeError, UnauthenticatedError } from '../domain/identity.errors';
import { Principal, scopesAdmit } from '../domain/principal';
import { RoleForbiddenError } from '../domain/members.errors';
import { admittedRoles, Role } from '../domain/role';
import { AUTH_REQUIREMENT, AuthenticatedRequest, AuthRequirement, ROLE_REQUIREMENT } from './auth';
import { originAllowed, sessionTokenFromCookie } from './session-cookie';

/**
 * 401 for a missing, unknown or revoked credential; 403 for a valid one of the wrong kind or without
 * the route's scope, or a session whose member's role the route does not admit (ROLE_FORBIDDEN; the
 * route's `@Roles`, else a default from its method). Routes without a declaration are session-only.
 * Without an Authorization header the dashboard's session cookie is read (a session token only), under
 * the CSRF Origin rule.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CREDENTIAL_RESOLVER) private readonly credentials: CredentialResolver,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [context.getHandler(), context.getClass()]) ?? { kind: 'session' };
    if (requirement.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = request.headers.authorization === undefined ? this.cookieToken(request) : bearerToken(request.headers.authorization);
    if (!token) throw new UnauthenticatedError('Send a credential as Authorization: Bearer <token>');
    const principal = await this.credentials.resolve(token);
    if (!principal) throw new UnauthenticatedError('The credential is invalid, expired or revoked');
    const handlers = [context.getHandler(), context.getClass()];
    assertAllowed(requirement, principal, request.method);
    if (principal.kind === 'session') assertRole(this.reflector.getAllAndOverride<Role[] | undefined>(ROLE_REQUIREMENT, handlers), request.method, principal.role);
    request.principal = principal;
    return true;
  }

  private cookieToken(request: AuthenticatedRequest): string | null {
    const token = sessionTokenFromCookie(request.headers.cookie);
    if (token && !originAllowed(request, this.config)) throw new CsrfOriginMismatchError();
    return token;
  }
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

function assertRole(declared: Role[] | undefined, method: string, role: Role): void {
  const admitted = admittedRoles(declared, method);
  if (!admitted.includes(role)) throw new RoleForbiddenError(role, admitted);
}

function assertAllowed(requirement: Exclude<AuthRequirement, { kind: 'public' }>, principal: Principal, method: string): void {
  if (principal.kind === 'session') {
    if (requirement.kind === 'api_key') throw new CredentialNotAllowedError('This call takes an API key, not a session');
    return;
  }
  if (requirement.kind === 'session') throw new CredentialNotAllowedError('This call takes a logged-in session, not an API key');
  if (requirement.scope !== null && !scopesAdmit(principal.scopes, requirement.scope, method === 'GET' || method === 'HEAD')) throw new MissingScopeError(requirement.scope);
}
