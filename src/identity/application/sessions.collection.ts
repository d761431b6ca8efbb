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
  /** Real time (not the sandbox clock) after which the token is refused. */
  expiresAt: string;
}
