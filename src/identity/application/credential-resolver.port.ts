import type { Principal } from '../domain/principal';

/** Turns a bearer token into a caller, or null when the token is unknown, expired or revoked. */
export interface CredentialResolver {
  resolve(token: string): Promise<Principal | null>;
}

export const CREDENTIAL_RESOLVER = Symbol('CREDENTIAL_RESOLVER');
