import fc from 'fast-check';
import { issueApiKey } from '../support/split-fixtures';
import { signup, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 15: fast-check over every route's documented body schema (from the service's own OpenAPI
 * document), plus hostile bodies: deep nesting, huge arrays, bad UTF-8, lone surrogates,
 * prototype-named keys and ids. Every generated body also carries a field no schema has, so it must be
 * refused: the service may answer any 4xx but never a 5xx, and nothing may be appended to the log.
 */

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; $ref?: string; required?: string[] };
type Operation = { method: string; path: string; schema: Schema | null; form: boolean };

const HOSTILE_STRINGS = ['', ' ', '\ud800', 'a\udc00b', '__proto__', 'constructor', 'toString', '%ff', '../../etc', 'x'.repeat(300), '0', '-1', '1e309', 'null', '😀', '\u0000'];
const PROTO_IDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'undefined', 'valueOf', '%ff', 'x'.repeat(120), '..', 'spl_nope'];

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, [], {}, [[]], [{}], { __proto__: null }),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
);

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  return schema.$ref ? resolve(components[schema.$ref.split('/').pop()!]!, components) : schema;
}

/** A value shaped like `schema`, with any field possibly swapped for a hostile one. */
function shaped(schema: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  const plain: fc.Arbitrary<unknown> = (() => {
    if (s.enum) return fc.constantFrom(...s.enum);
    if (s.type === 'object' || s.properties) {
      if (depth > 4) return fc.constant({});
      const entries = Object.entries(s.properties ?? {}).map(([key, child]) => [key, shaped(child, components, depth + 1)] as const);
      return fc.record(Object.fromEntries(entries), { requiredKeys: [] });
    }
    if (s.type === 'array') return fc.array(shaped(s.items ?? {}, components, depth + 1), { maxLength: 4 });
    if (s.type === 'integer' || s.type === 'number') return fc.integer({ min: -5, max: 100_000 });
    if (s.type === 'boolean') return fc.boolean();
    return fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('1000', 'a@example.test', 'https://shop.example/x', 'USD'));
  })();
  return fc.oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: hostileValue });
}

/** Raw bodies no schema covers: the parser must refuse them before anything else runs. */
const rawHostile = fc.oneof(
  fc.integer({ min: 33, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 33, max: 3000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.constant(JSON.stringify({ x: new Array(5000).fill(1) })),
  fc.constant('{"email":"\\ud800"}'),
  fc.constant('{"__proto__":{"admin":true}}'),
  fc.constant('{"constructor":{"prototype":{"x":1}}}'),
  fc.constant('{"name": '),
);
const badUtf8 = fc
  .uint8Array({ minLength: 1, maxLength: 30 })
  .map((bytes) => Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from(bytes), Buffer.from('"}')]));

describe('body fuzz (issue 15)', () => {
  let app: TestApp;
  let tokens: (string | undefined)[];
  let operations: Operation[];
  beforeAll(async () => {
    app = await startTestApp();
    const owner = await signup(app, 'Fuzz');
    tokens = [undefined, owner.sessionToken, await issueApiKey(app, owner.sessionToken, ['checkout:write', 'split:write', 'payout:write'])];
    const openapi = (await app.request('GET', '/docs/openapi.json')).body;
    operations = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        const content = operation.requestBody?.content ?? {};
        const json = content['application/json']?.schema ?? null;
        // Without a body schema or a path id to fuzz, a call (logout, rotate the secret) may rightly succeed.
        if (!json && !path.includes('{')) continue;
        operations.push({ method: method.toUpperCase(), path, schema: json, form: path.startsWith('/pay/') || path.startsWith('/checkout/') });
      }
    }
    expect(operations.length).toBeGreaterThan(25);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers thousands of hostile requests over every route with no 5xx and appends nothing', async () => {
    const components = ((await app.request('GET', '/docs/openapi.json')).body.components?.schemas ?? {}) as Record<string, Schema>;
    const before = await app.eventCount();
    const failures: string[] = [];
    let sent = 0;
    const request = fc.tuple(fc.nat(operations.length - 1), fc.nat(2), fc.constantFrom(...PROTO_IDS), fc.nat(9)).chain(([index, tokenIndex, id, variant]) => {
      const operation = operations[index]!;
      const path = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(id).replace('%25ff', '%ff'));
      const body: fc.Arbitrary<{ raw: string | Buffer; type: string }> =
        variant === 0
          ? rawHostile.map((raw) => ({ raw, type: 'application/json' }))
          : variant === 1
            ? badUtf8.map((raw) => ({ raw, type: operation.form && variant % 2 ? 'application/x-www-form-urlencoded' : 'application/json' }))
            : shaped(operation.schema ?? { type: 'object' }, components).map((value) => {
                // A field no schema has: the body must be refused whatever else it holds.
                const withUnknown = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, zzUnknownField: 1 } : value;
                return { raw: JSON.stringify(withUnknown) ?? 'null', type: 'application/json' };
              });
      return body.map((b) => ({ operation, path, token: tokens[tokenIndex], ...b }));
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ operation, path, token, raw, type }) => {
        sent++;
        const headers: Record<string, string> = { 'content-type': type };
        if (token) headers.authorization = `Bearer ${token}`;
        const response = await fetch(`${app.url}${path}`, { method: operation.method, headers, body: typeof raw === 'string' ? raw : new Uint8Array(raw), redirect: 'manual' });
        const text = await response.text();
        if (response.status >= 500) failures.push(`${operation.method} ${path} -> ${response.status} ${text.slice(0, 200)} body=${String(raw).slice(0, 200)}`);
        // Success is impossible: every body carries an unknown field or is not a valid body at all.
        if (response.status < 300 && operation.method !== 'DELETE') failures.push(`${operation.method} ${path} -> ${response.status} accepted ${String(raw).slice(0, 200)}`);
      }),
      { numRuns: 2500, seed: Number(process.env.FUZZ_SEED ?? 15), endOnFailure: true },
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(2500);
    expect(await app.eventCount()).toBe(before);
  }, 120_000);
});
