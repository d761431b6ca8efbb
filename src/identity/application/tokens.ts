import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../platform/ids/ids';

/** Secrets handed to callers; only their SHA-256 is ever stored. */
export function newSecretToken(prefix: 'sk' | 'sess' | 'ml'): { token: string; hash: string } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: sha256Hex(token) };
}

export const hashToken = sha256Hex;
