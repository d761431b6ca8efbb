import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_HEX = /^[0-9a-fA-F]{64}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts small secrets at rest (webhook signing secrets) with AES-256-GCM.
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyHex: string) {
    if (!KEY_HEX.test(keyHex)) throw new Error('SecretBox key must be 64 hex characters (32 bytes)');
    this.key = Buffer.from(keyHex, 'hex');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
  }

  open(sealed: string): string {
    const [iv, tag, ciphertext] = parseSealed(sealed);
    // authTagLength pins the tag size; without it GCM would accept a truncated (forgeable) tag.
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('SecretBox: cannot open sealed value (wrong key or tampered data)');
    }
  }
}

// Node's base64url decoder silently skips invalid characters, so the alphabet is checked here.
const SEALED = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/;

function parseSealed(sealed: string): [Buffer, Buffer, Buffer] {
  const match = typeof sealed === 'string' ? SEALED.exec(sealed) : null;
  if (!match) throw new Error('SecretBox: malformed sealed value (expected v1.<iv>.<tag>.<ciphertext>)');
  const [iv, tag, ciphertext] = match.slice(1).map((part) => Buffer.from(part, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('SecretBox: malformed sealed value (bad IV or tag length)');
  return [iv, tag, ciphertext];
}

/**
 * Sandbox only: SECRETS_KEY defaults to a key generated once into DATA_DIR/secrets.key (mode 0600)
 * and reused on every later start, so sealed secrets survive restarts.
 */
export function loadOrCreateSandboxKey(dataDir: string): string {
  const file = join(dataDir, 'secrets.key');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // Already there (from an earlier start or a concurrent process): use it.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = readFileSync(file, 'utf8').trim();
  if (!KEY_HEX.test(key)) throw new Error(`${file} does not hold a 64 hex character key`);
  return key;
}
