import { SetMetadata } from '@nestjs/common';

/**
 * Route metadata key read by the auth guard (identity/http/auth.guard.ts). It lives here, and not in
 * identity, only so that platform controllers (health, metrics) can declare themselves public without
 * importing a business module; identity's decorators (SessionAuth, ApiKeyAuth, ...) set the same key.
 */
export const AUTH_REQUIREMENT = 'paysplit:auth';

/** The route takes no credential. */
export const Public = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'public' } as const);

/**
 * Route metadata key of the member roles a session route admits (identity's `@Roles(...)`, issue 30),
 * read by the auth guard and the OpenAPI document beside AUTH_REQUIREMENT. A route without it gets a
 * default from its method (identity/domain/role.ts `admittedRoles`).
 */
export const ROLE_REQUIREMENT = 'paysplit:roles';
