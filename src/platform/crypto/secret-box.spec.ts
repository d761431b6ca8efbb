import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSandboxKey, SecretBox } from './secret-box';

const KEY = 'a'.repeat(64);
const OTHER_KEY = randomBytes(32).toString('hex');
const SECRET = 'whsec_' + randomBytes(32).toString('hex');

describe('SecretBox', () => {
  const box = new SecretBox(KEY);

  it.each([SECRET, '', 'ünïcødé ✓ \u{1F600}', 'x'.repeat(10_000)])('round-trips %#', (plaintext) => {
    const sealed = box.seal(plaintext);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/);
    expect(box.open(sealed)).toBe(plaintext);
  });

  it('does not contain the plaintext', () => expect(box.seal(SECRET)).not.toContain(SECRET.slice(6, 20)));

  it('opens with another instance holding the same key (upper or lower case hex)', () => {
    expect(new SecretBox(KEY.toUpperCase()).open(box.seal(SECRET))).toBe(SECRET);
  });

  it('produces a different sealed value every time', () => {
    const sealed = new Set(Array.from({ length: 20 }, () => box.seal(SECRET)));
    expect(sealed.size).toBe(20);
    expect(new Set([...sealed].map((value) => value.split('.')[1])).size).toBe(20);
  });

  it.each([1, 2, 3])('detects tampering with part %i', (index) => {
    const parts = box.seal(SECRET).split('.');
    const bytes = Buffer.from(parts[index], 'base64url');
    bytes[0] ^= 0x01;
    parts[index] = bytes.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow('SecretBox: cannot open sealed value (wrong key or tampered data)');
  });

  it('detects a truncated ciphertext', () => {
    const sealed = box.seal(SECRET);
    expect(() => box.open(sealed.slice(0, -4))).toThrow(/cannot open/);
  });

  it('refuses a truncated tag instead of accepting a shorter one', () => {
    const [version, iv, tag, ciphertext] = box.seal(SECRET).split('.');
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => box.open([version, iv, shortTag, ciphertext].join('.'))).toThrow(/malformed/);
  });

  it('refuses a wrong key', () => {
    expect(() => new SecretBox(OTHER_KEY).open(box.seal(SECRET))).toThrow(/wrong key or tampered/);
  });

  it.each([
    '',
    'v1',
    'v1.a.b',
    'v2.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA',
    'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA.AA',
    'v1.AAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA',
    'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA+/',
    'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA==',
    'v1..AAAAAAAAAAAAAAAAAAAAAA.AAAA',
    'not sealed at all',
  ])('refuses the malformed value %j', (sealed) => {
    expect(() => box.open(sealed)).toThrow(/SecretBox: malformed sealed value/);
  });

  it.each(['', 'abc', 'g'.repeat(64), 'a'.repeat(63), 'a'.repeat(66)])('refuses the key %j', (key) => {
    expect(() => new SecretBox(key)).toThrow('SecretBox key must be 64 hex characters (32 bytes)');
  });
});

describe('loadOrCreateSandboxKey', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'paysplit-secret-box-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a 32-byte hex key readable only by the owner, once, and reuses it', () => {
    const dataDir = join(dir, 'nested', 'data');
    const key = loadOrCreateSandboxKey(dataDir);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const file = join(dataDir, 'secrets.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
    expect(loadOrCreateSandboxKey(dataDir)).toBe(key);
    expect(new SecretBox(loadOrCreateSandboxKey(dataDir)).open(new SecretBox(key).seal('kept'))).toBe('kept');
  });

  it('gives a fresh data dir a different key', () => {
    expect(loadOrCreateSandboxKey(join(dir, 'a'))).not.toBe(loadOrCreateSandboxKey(join(dir, 'b')));
  });

  it('uses an existing key file as is', () => {
    writeFileSync(join(dir, 'secrets.key'), `${OTHER_KEY}\n`);
    expect(loadOrCreateSandboxKey(dir)).toBe(OTHER_KEY);
  });

  it('refuses a corrupt key file instead of replacing it', () => {
    writeFileSync(join(dir, 'secrets.key'), 'not a key');
    expect(() => loadOrCreateSandboxKey(dir)).toThrow(/secrets\.key does not hold a 64 hex character key/);
    expect(readFileSync(join(dir, 'secrets.key'), 'utf8')).toBe('not a key');
  });
});
