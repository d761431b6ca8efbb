import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../../platform/domain/domain-error';
import type { Principal } from '../domain/principal';
import { loadConfig } from '../../platform/config/app-config';
import { AuthGuard } from './auth.guard';
import { ApiKeyAuth, ApiKeyOrSessionAuth, AuthenticatedRequest, Public, Roles, SessionAuth } from './auth';
import { ANY_ROLE, FINANCE } from '../domain/role';

const session: Principal = { kind: 'session', companyId: 'co_1', userId: 'usr_1', sessionId: 'h', role: 'owner' };
const splitKey: Principal = { kind: 'api_key', companyId: 'co_1', keyId: 'key_1', scopes: ['split:write'] };
const viewer: Principal = { ...session, role: 'viewer' };
const finance: Principal = { ...session, role: 'finance' };
const developer: Principal = { ...session, role: 'developer' };
const splitReader: Principal = { ...splitKey, scopes: ['split:read'] };
const tokens: Record<string, Principal> = { sess_ok: session, sk_split: splitKey, sess_viewer: viewer, sess_finance: finance, sess_dev: developer, sk_read: splitReader };

class Routes {
  @Public() open() {}
  @SessionAuth() sessionOnly() {}
  @ApiKeyAuth('split:write') splits() {}
  @ApiKeyAuth('checkout:write') checkout() {}
  @ApiKeyOrSessionAuth('split:write') either() {}
  undeclared() {}
  @SessionAuth() @Roles(...FINANCE) pay() {}
  @SessionAuth() @Roles(...ANY_ROLE) signOut() {}
}

async function attempt(route: keyof Routes, authorization?: string, method = 'POST'): Promise<{ allowed: boolean; code?: string; principal?: Principal }> {
  const request = { method, headers: { authorization } } as unknown as AuthenticatedRequest;
  const context = {
    getHandler: () => Routes.prototype[route],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  const guard = new AuthGuard(new Reflector(), { resolve: async (token) => tokens[token] ?? null }, loadConfig({ SANDBOX: 'true', PUBLIC_BASE_URL: 'https://pay.example' }));
  try {
    return { allowed: await guard.canActivate(context), principal: request.principal };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { allowed: false, code: `${error.kind}:${error.code}` };
  }
}

describe('AuthGuard', () => {
  it.each<[keyof Routes, string | undefined, string]>([
    ['open', undefined, 'allowed'],
    ['sessionOnly', undefined, 'unauthenticated:UNAUTHENTICATED'],
    ['sessionOnly', 'Bearer sess_unknown', 'unauthenticated:UNAUTHENTICATED'],
    ['sessionOnly', 'Bearer sess_ok', 'allowed'],
    ['sessionOnly', 'Bearer sk_split', 'forbidden:CREDENTIAL_NOT_ALLOWED'],
    ['undeclared', 'Bearer sk_split', 'forbidden:CREDENTIAL_NOT_ALLOWED'],
    ['undeclared', 'Bearer sess_ok', 'allowed'],
    ['splits', 'Bearer sk_split', 'allowed'],
    ['splits', 'Bearer sess_ok', 'forbidden:CREDENTIAL_NOT_ALLOWED'],
    ['checkout', 'Bearer sk_split', 'forbidden:MISSING_SCOPE'],
    ['either', 'Bearer sk_split', 'allowed'],
    ['either', 'Bearer sess_ok', 'allowed'],
    ['splits', 'Token sk_split', 'unauthenticated:UNAUTHENTICATED'],
  ])('%s with %s -> %s', async (route, header, expected) => {
    const outcome = await attempt(route, header);
    expect(outcome.allowed ? 'allowed' : outcome.code).toBe(expected);
  });

  // Issue 30: what a session may do depends on its member's role; a route without @Roles gets a default from its method.
  it.each<[keyof Routes, string, string, string]>([
    ['undeclared', 'GET', 'Bearer sess_viewer', 'allowed'],
    ['undeclared', 'POST', 'Bearer sess_viewer', 'forbidden:ROLE_FORBIDDEN'],
    ['undeclared', 'DELETE', 'Bearer sess_finance', 'forbidden:ROLE_FORBIDDEN'],
    ['undeclared', 'PATCH', 'Bearer sess_dev', 'forbidden:ROLE_FORBIDDEN'],
    ['undeclared', 'POST', 'Bearer sess_ok', 'allowed'],
    ['pay', 'POST', 'Bearer sess_finance', 'allowed'],
    ['pay', 'POST', 'Bearer sess_dev', 'forbidden:ROLE_FORBIDDEN'],
    ['pay', 'POST', 'Bearer sess_viewer', 'forbidden:ROLE_FORBIDDEN'],
    ['signOut', 'POST', 'Bearer sess_viewer', 'allowed'],
    // Roles do not apply to API keys; a :read scope reads what its :write scope reads, and writes nothing.
    ['either', 'POST', 'Bearer sk_split', 'allowed'],
    ['splits', 'GET', 'Bearer sk_read', 'allowed'],
    ['splits', 'POST', 'Bearer sk_read', 'forbidden:MISSING_SCOPE'],
    ['splits', 'GET', 'Bearer sk_split', 'allowed'],
  ])('%s %s with %s -> %s', async (route, method, header, expected) => {
    const outcome = await attempt(route, header, method);
    expect(outcome.allowed ? 'allowed' : outcome.code).toBe(expected);
  });

  it('attaches the caller to the request', async () => {
    expect((await attempt('splits', 'Bearer sk_split')).principal).toEqual(splitKey);
  });
});
