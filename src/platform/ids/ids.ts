import { hash, randomFillSync } from 'node:crypto';

export type IdPrefix =
  'spl' | 'dst' | 'crp' | 'ord' | 'sub' | 'po' | 'we' | 'evt' | 'dlv' | 'co' | 'usr' | 'bp' | 'cpp' | 'sv' | 'pes' | 'key' | 'req' | 'pay' | 'rf' | 'rev' | 'inv' | 'ipm' | 'btr';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Sortable ids: `<prefix>_` + 10 base36 characters of milliseconds + 16 random base36 characters.
 * Lexicographic order follows creation time at millisecond resolution.
 */
export function newId(prefix: IdPrefix, nowMs: number): string {
  return `${prefix}_${nowMs.toString(36).padStart(10, '0')}${randomBase36(16)}`;
}

/**
 * An id that is also a credential (whoever knows it may act on the resource): all 26 characters random,
 * about 134 bits, same shape as `newId` but not time-sortable (issue 15).
 */
export function credentialId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase36(26)}`;
}

/** Deterministic id from a natural key, for idempotent commands (same key -> same id). */
export function deterministicId(prefix: IdPrefix, ...parts: string[]): string {
  const digest = hash('sha256', JSON.stringify(parts), 'buffer');
  let out = '';
  for (let i = 0; i < 26; i++) out += ALPHABET[digest[i]! % 36];
  return `${prefix}_${out}`;
}

/** Random bytes are drawn from the OS a pool at a time: one call per id would cost more than the id. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, then random bits. Event ids are indexed
 * (unique) in the embedded store; ids that grow with time land on the index's last page instead of a
 * random one, which halves the pages a commit writes.
 */
export function timeOrderedUuid(nowMs: number): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  for (let i = 6; i < 16; i++) bytes[i] = randomByte();
  bytes[6] = (bytes[6]! & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Uniform base36 characters: bytes >= 252 (7 * 36) are redrawn so no character is more likely than another. */
export function randomBase36(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 252) out += ALPHABET[byte % 36];
  }
  return out;
}

/** One-shot `crypto.hash`: a third of the CPU of createHash().update().digest() for a short string (issue 31). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
