/**
 * Sessions are operational state, not business facts: they live in the read store (outside any
 * projection, so rebuilds keep them), keyed by the SHA-256 of the token.
 */
export const SESSIONS = 'sessions';

export interface SessionDoc {
  id: string;
  userId: string;
  companyId: string;
  createdAt: string;
  /**
   * Real time the session was issued; a password reset ends the sessions issued until then (CredentialCutoffs).
   * Absent on sessions issued before issue 29: a reset ends them too.
   */
  issuedAt?: string;
  /** Real time (not the sandbox clock) after which the token is refused. */
  expiresAt: string;
}
