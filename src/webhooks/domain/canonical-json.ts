/**
 * Canonical JSON (RFC 8785 style) for webhook bodies: object keys sorted recursively by UTF-16 code
 * units, no whitespace, arrays in order. The signature covers these exact bytes, so anything that
 * JSON.stringify would silently drop or mangle (undefined, NaN, bigint, Dates...) is refused instead.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, '$', new Set());
}

function encode(value: unknown, path: string, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value} at ${path}`);
      return JSON.stringify(value); // ECMAScript number formatting, as RFC 8785 prescribes; -0 becomes 0
    case 'object':
      return encodeContainer(value, path, ancestors);
    default:
      throw new TypeError(`canonicalJson: cannot encode ${typeof value} at ${path}`);
  }
}

function encodeContainer(value: object, path: string, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new TypeError(`canonicalJson: circular reference at ${path}`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item, index) => encode(item, `${path}[${index}]`, ancestors)).join(',')}]`;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new TypeError(`canonicalJson: only plain objects and arrays are allowed, got ${value.constructor?.name ?? 'object'} at ${path}`);
    }
    const record = value as Record<string, unknown>;
    // The default sort compares UTF-16 code units, exactly RFC 8785's key order.
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${encode(record[key], `${path}.${key}`, ancestors)}`);
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
