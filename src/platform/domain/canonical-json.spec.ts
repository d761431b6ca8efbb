import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it.each([
    [null, 'null'],
    [true, 'true'],
    [false, 'false'],
    [0, '0'],
    [-0, '0'],
    [42, '42'],
    [-1.5, '-1.5'],
    [1e21, '1e+21'],
    [0.000001, '0.000001'],
    ['plain', '"plain"'],
    ['quote " backslash \\ newline \n tab \t', '"quote \\" backslash \\\\ newline \\n tab \\t"'],
    ['\u0001', '"\\u0001"'],
    ['é €', '"é €"'],
    [[], '[]'],
    [{}, '{}'],
  ])('encodes %j as %s', (value, expected) => expect(canonicalJson(value)).toBe(expected));

  it('sorts keys recursively and writes no whitespace', () => {
    const value = { z: 1, a: { d: [3, { y: true, b: null }], c: 'x' }, m: [] };
    expect(canonicalJson(value)).toBe('{"a":{"c":"x","d":[3,{"b":null,"y":true}]},"m":[],"z":1}');
  });

  it('keeps array order', () => expect(canonicalJson([3, 1, 2, 'b', 'a'])).toBe('[3,1,2,"b","a"]'));

  it('orders keys by UTF-16 code units, not by code point or locale', () => {
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FFFD in UTF-16 but after it by code point.
    const value = { '\uFFFD': 1, '\u{1F600}': 2, a: 3, B: 4, '10': 5, '9': 6, '': 7 };
    expect(canonicalJson(value)).toBe('{"":7,"10":5,"9":6,"B":4,"a":3,"\u{1F600}":2,"\uFFFD":1}');
  });

  it('is independent of insertion order', () => {
    expect(canonicalJson({ b: 1, a: { y: 1, x: 2 } })).toBe(canonicalJson({ a: { x: 2, y: 1 }, b: 1 }));
  });

  it('escapes keys like strings', () => expect(canonicalJson({ 'a"b': 1 })).toBe('{"a\\"b":1}'));

  it('accepts objects without a prototype', () => {
    const value = Object.assign(Object.create(null), { b: 2, a: 1 });
    expect(canonicalJson(value)).toBe('{"a":1,"b":2}');
  });

  it('encodes a webhook body', () => {
    const body = { type: 'checkout.completed', id: 'evt_1', data: { payoutId: 'po_1', amount: '1000', currency: 'USD' }, createdAt: '2024-01-01T00:00:00.000Z' };
    expect(canonicalJson(body)).toBe(
      '{"createdAt":"2024-01-01T00:00:00.000Z","data":{"amount":"1000","currency":"USD","payoutId":"po_1"},"id":"evt_1","type":"checkout.completed"}',
    );
  });

  it('round-trips through JSON.parse', () => {
    const value = { list: [1, 'two', { three: [null, false] }], nested: { deep: { deeper: 'ok' } } };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  it.each([
    ['NaN', NaN, /non-finite number NaN at \$/],
    ['Infinity', Infinity, /non-finite/],
    ['-Infinity', -Infinity, /non-finite/],
    ['bigint', 1n, /cannot encode bigint/],
    ['undefined', undefined, /cannot encode undefined/],
    ['a function', () => 1, /cannot encode function/],
    ['a symbol', Symbol('s'), /cannot encode symbol/],
    ['a Date', new Date(0), /only plain objects.*Date/],
    ['a Map', new Map(), /only plain objects.*Map/],
  ])('refuses %s', (_name, value, message) => expect(() => canonicalJson(value)).toThrow(message));

  it('refuses bad values nested anywhere and names the path', () => {
    expect(() => canonicalJson({ data: { amount: NaN } })).toThrow('at $.data.amount');
    expect(() => canonicalJson({ data: { subscriptionId: undefined } })).toThrow('undefined at $.data.subscriptionId');
    expect(() => canonicalJson([1, [2, 3n]])).toThrow('at $[1][1]');
  });

  it('refuses cycles but allows shared (non-circular) references', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow('circular reference at $.self');
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });
});

describe("canonicalJson in 'fingerprint' mode (request fingerprints are stored: these bytes must never change)", () => {
  it('writes JSON values exactly as the strict mode does', () => {
    const value = { z: 1, a: { d: [3, { y: true, b: null }], c: 'x' }, m: [], '\uFFFD': 1, '\u{1F600}': 2, '10': 5, '9': 6, n: -0, e: 1e21 };
    expect(canonicalJson(value, 'fingerprint')).toBe(canonicalJson(value));
    expect(canonicalJson(value, 'fingerprint')).toBe('{"10":5,"9":6,"a":{"c":"x","d":[3,{"b":null,"y":true}]},"e":1e+21,"m":[],"n":0,"z":1,"\u{1F600}":2,"\uFFFD":1}');
  });

  it('leaves undefined members out and writes undefined array items and non-finite numbers as null, at every depth', () => {
    const value = { a: undefined, b: [undefined, { c: undefined, d: NaN }], e: JSON.parse('1e400') as number, f: -Infinity };
    expect(canonicalJson(value, 'fingerprint')).toBe('{"b":[null,{"d":null}],"e":null,"f":null}');
  });

  it("encodes any object by its own enumerable keys, as Fastify's route params (a null-prototype class)", () => {
    const NullObject = function () {} as unknown as { new (): Record<string, unknown>; prototype: object };
    NullObject.prototype = Object.create(null) as object;
    const params = Object.assign(new NullObject(), { splitId: 'spl_1', rowId: 'row_2' });
    expect(canonicalJson({ params }, 'fingerprint')).toBe('{"params":{"rowId":"row_2","splitId":"spl_1"}}');
    expect(() => canonicalJson({ params })).toThrow(/only plain objects/);
  });

  it.each([
    ['bigint', { a: 1n }, /cannot encode bigint at \$\.a/],
    ['undefined', undefined, /cannot encode undefined at \$/],
  ])('still refuses %s', (_name, value, message) => expect(() => canonicalJson(value, 'fingerprint')).toThrow(message));
});

describe('canonicalJson against a plain reference encoder (the bytes of the version before issue 31 round 4)', () => {
  /** Sorted keys, recursion, join: the straightforward encoder canonicalJson was until it stopped allocating per member. */
  function reference(value: unknown, mode: 'strict' | 'fingerprint'): string {
    if (value === null) return 'null';
    if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    if (typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map((item: unknown) => (item === undefined ? 'null' : reference(item, mode))).join(',')}]`;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => mode === 'strict' || record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(record[key], mode)}`).join(',')}}`;
  }

  // A small deterministic generator (no Math.random: a failure must reproduce).
  let seed = 31;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const alphabet = ['a', 'B', 'z', '10', '9', '', '\uFFFD', '\u{1F600}', 'é', 'a"b', 'key', 'Key', 'k\n'];
  function randomValue(depth: number, fingerprint: boolean): unknown {
    switch (next(depth > 3 ? 5 : 7)) {
      case 0:
        return null;
      case 1:
        return next(2) === 0;
      case 2:
        return [0, -0, 1.5, -42, 1e21, 0.000001][next(6)]!;
      case 3:
        return alphabet[next(alphabet.length)]! + String(next(5));
      case 4:
        return fingerprint && next(4) === 0 ? undefined : 'x';
      case 5:
        return Array.from({ length: next(5) }, () => randomValue(depth + 1, fingerprint));
      default: {
        // Up to 40 keys: both the in-place insertion sort (16 or fewer) and Array.prototype.sort.
        const record: Record<string, unknown> = {};
        const size = next(3) === 0 ? 17 + next(24) : next(8);
        for (let i = 0; i < size; i++) record[alphabet[next(alphabet.length)]! + String(next(30))] = randomValue(depth + 1, fingerprint);
        return record;
      }
    }
  }

  it('writes the same bytes for 2,000 generated values in each mode', () => {
    for (let i = 0; i < 1000; i++) {
      const strict = { root: randomValue(0, false) };
      expect(canonicalJson(strict)).toBe(reference(strict, 'strict'));
      const loose = { root: randomValue(0, true) };
      expect(canonicalJson(loose, 'fingerprint')).toBe(reference(loose, 'fingerprint'));
    }
  });
});
