import { randomBytes } from 'node:crypto';
import { Clock } from '../../platform/clock/clock';
import { sha256Hex } from '../../platform/ids/ids';

/** Secrets handed to callers; only their SHA-256 is ever stored. */
export function newSecretToken(prefix: 'sk' | 'sess' | 'ml' | 'pwr'): { token: string; hash: string } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: sha256Hex(token) };
}

export const hashToken = sha256Hex;

/** When a credential issued now on `realClock` stops working: sessions and magic links age in real time. */
export function expiresIn(realClock: Clock, seconds: number): string {
  return new Date(realClock.now().getTime() + seconds * 1000).toISOString();
}

/** Whether a session or magic link is past its `expiresAt` (real time). */
export function hasExpired(credential: { expiresAt: string }, realClock: Clock): boolean {
  return credential.expiresAt <= realClock.now().toISOString();
}
