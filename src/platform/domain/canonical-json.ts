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
  return encode(value, '$', new Set(), mode);
}

function encode(value: unknown, path: string, ancestors: Set<object>, mode: CanonicalJsonMode): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) {
        if (mode === 'fingerprint') return 'null';
        throw new TypeError(`canonicalJson: non-finite number ${value} at ${path}`);
      }
      return JSON.stringify(value); // ECMAScript number formatting, as RFC 8785 prescribes; -0 becomes 0
    case 'object':
      return encodeContainer(value, path, ancestors, mode);
    default:
      throw new TypeError(`canonicalJson: cannot encode ${typeof value} at ${path}`);
  }
}

function encodeContainer(value: object, path: string, ancestors: Set<object>, mode: CanonicalJsonMode): string {
  if (ancestors.has(value)) throw new TypeError(`canonicalJson: circular reference at ${path}`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.map((item: unknown, index) => (item === undefined && mode === 'fingerprint' ? 'null' : encode(item, `${path}[${index}]`, ancestors, mode)));
      return `[${items.join(',')}]`;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (mode === 'strict' && prototype !== Object.prototype && prototype !== null) {
      throw new TypeError(`canonicalJson: only plain objects and arrays are allowed, got ${value.constructor?.name ?? 'object'} at ${path}`);
    }
    const record = value as Record<string, unknown>;
    // The default sort compares UTF-16 code units, exactly RFC 8785's key order.
    const members = Object.keys(record)
      .filter((key) => mode === 'strict' || record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${encode(record[key], `${path}.${key}`, ancestors, mode)}`);
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
