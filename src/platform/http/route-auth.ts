import { SetMetadata } from '@nestjs/common';

/**
 * Route metadata key read by the auth guard (identity/http/auth.guard.ts). It lives here, and not in
 * identity, only so that platform controllers (health, metrics) can declare themselves public without
 * importing a business module; identity's decorators (SessionAuth, ApiKeyAuth, ...) set the same key.
 */
export const AUTH_REQUIREMENT = 'paysplit:auth';

/** The route takes no credential. */
export const Public = () => SetMetadata(AUTH_REQUIREMENT, { kind: 'public' } as const);
