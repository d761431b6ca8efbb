import { createHash, randomBytes } from 'node:crypto';

export type IdPrefix =
  | 'spl' | 'dst' | 'crp' | 'ord' | 'sub' | 'po' | 'we' | 'evt' | 'dlv' | 'co' | 'usr' | 'bp' | 'cpp' | 'sv' | 'pes' | 'key' | 'req';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Sortable ids: `<prefix>_` + 10 base36 characters of milliseconds + 16 random base36 characters.
 * Lexicographic order follows creation time at millisecond resolution.
 */
export function newId(prefix: IdPrefix, nowMs: number): string {
  return `${prefix}_${nowMs.toString(36).padStart(10, '0')}${randomBase36(16)}`;
}

/** Deterministic id from a natural key, for idempotent commands (same key -> same id). */
export function deterministicId(prefix: IdPrefix, ...parts: string[]): string {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  let out = '';
  for (let i = 0; i < 26; i++) out += ALPHABET[digest[i]! % 36];
  return `${prefix}_${out}`;
}

export function randomBase36(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % 36];
  return out;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
