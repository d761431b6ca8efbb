/**
 * Canonical JSON (RFC 8785 style), the one encoder: object keys sorted recursively by UTF-16 code
 * units, no whitespace, arrays in order, strings and numbers as `JSON.stringify` writes them.
 *
 * - `'strict'` (the default) is for bytes that are signed (webhook bodies): anything `JSON.stringify`
 *   would silently drop or mangle (undefined, NaN, bigint, Dates, class instances...) is refused.
 * - `'fingerprint'` is for hashing a request as parsed (`requestFingerprint`): it keeps what
 *   `JSON.stringify` does with a parsed body, so a stored fingerprint never changes. An `undefined`
 *   member is left out, an `undefined` array item and a non-finite number (`1e400` parses as
 *   Infinity) are written `null`, and any non-array object (Fastify's route params have a
 *   null-prototype class) is written as its own enumerable string keys. bigint and cycles are refused.
 */
export type CanonicalJsonMode = 'strict' | 'fingerprint';

export function canonicalJson(value: unknown, mode: CanonicalJsonMode = 'strict'): string {
  return new Encoder(mode).encode(value);
}

/** Keys this many or fewer are sorted in place by insertion; more go to Array.prototype.sort. */
const INSERTION_SORT_MAX = 16;

/**
 * One encoding. The path to the value being encoded is kept as a stack of keys and written out only
 * for an error message, and members are appended to one string: building a path string per member,
 * key arrays filtered and mapped, and the sort's scratch copy were a fifth of everything the webhooks
 * bench's delivery pipeline allocated (issue 31, round 4).
 */
class Encoder {
  private readonly trail: (string | number)[] = [];
  private readonly ancestors: object[] = [];

  constructor(private readonly mode: CanonicalJsonMode) {}

  encode(value: unknown): string {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'boolean':
        return value ? 'true' : 'false';
      case 'string':
        return JSON.stringify(value);
      case 'number':
        if (!Number.isFinite(value)) {
          if (this.mode === 'fingerprint') return 'null';
          throw new TypeError(`canonicalJson: non-finite number ${value} at ${this.path()}`);
        }
        return JSON.stringify(value); // ECMAScript number formatting, as RFC 8785 prescribes; -0 becomes 0
      case 'object':
        return this.encodeContainer(value);
      default:
        throw new TypeError(`canonicalJson: cannot encode ${typeof value} at ${this.path()}`);
    }
  }

  private encodeContainer(value: object): string {
    if (this.ancestors.includes(value)) throw new TypeError(`canonicalJson: circular reference at ${this.path()}`);
    this.ancestors.push(value);
    const encoded = Array.isArray(value) ? this.encodeArray(value as unknown[]) : this.encodeObject(value);
    this.ancestors.pop();
    return encoded;
  }

  private encodeArray(items: unknown[]): string {
    let out = '[';
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      if (index > 0) out += ',';
      if (item === undefined && this.mode === 'fingerprint') out += 'null';
      else out += this.member(index, item);
    }
    return out + ']';
  }

  private encodeObject(value: object): string {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (this.mode === 'strict' && prototype !== Object.prototype && prototype !== null) {
      throw new TypeError(`canonicalJson: only plain objects and arrays are allowed, got ${value.constructor?.name ?? 'object'} at ${this.path()}`);
    }
    const record = value as Record<string, unknown>;
    const keys = sortedKeys(record);
    let out = '{';
    for (const key of keys) {
      const member = record[key];
      if (member === undefined && this.mode === 'fingerprint') continue;
      if (out.length > 1) out += ',';
      out += JSON.stringify(key) + ':' + this.member(key, member);
    }
    return out + '}';
  }

  private member(key: string | number, value: unknown): string {
    this.trail.push(key);
    const encoded = this.encode(value);
    this.trail.pop();
    return encoded;
  }

  private path(): string {
    return '$' + this.trail.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('');
  }
}

/** Own enumerable keys in UTF-16 code unit order, exactly RFC 8785's key order (and the default sort's). */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > INSERTION_SORT_MAX) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}
