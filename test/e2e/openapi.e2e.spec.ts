import { createdSplit, issueApiKey, setupSplitWorld, splitBody } from '../support/split-fixtures';
import { signup, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 16 item 5: the OpenAPI document at /docs/openapi.json describes every operation as it really
 * answers. For EVERY operation: a success answer with a schema (the {data} envelope for JSON, with meta
 * for lists), error answers in the {error:{code,message,details}} envelope naming their stable codes, a
 * security requirement exactly when the service asks for a credential; and every request-body example
 * the document shows (the one Swagger UI offers) is one the service accepts, sent with real credentials.
 */

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  required?: string[];
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  format?: string;
};
type Response = { description: string; content?: Record<string, { schema?: Schema; examples?: Record<string, { value: any }> }> };
type Operation = {
  operationId: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, Response>;
  parameters?: { in: string; name: string }[];
  'x-api-key-scope'?: string;
};
type Entry = { method: string; path: string; operation: Operation; label: string };

const CREDENTIALS = ['apiKey', 'session', 'embedToken'];
/** Where the answer is not the JSON envelope on purpose. */
const NOT_ENVELOPED = new Set(['GET /metrics', 'GET /embed/payouts/{id}', 'GET /api/auth/magic-link']);
/** /health answers 503 with its own report (which store is down), not an error envelope. */
const OWN_ERROR_BODY = new Set(['GET /health 503', 'GET /embed/payouts/{id} 404']);

describe('OpenAPI document (issue 16 item 5)', () => {
  let app: TestApp;
  let openapi: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> } };
  let entries: Entry[];
  let session: string;
  let apiKey: string;
  let keyWithoutScopes: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    openapi = (await app.request('GET', '/docs/openapi.json')).body;
    entries = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation, label: `${method.toUpperCase()} ${path}` })),
    );
    const owner = await signup(app, 'Docs Reader');
    session = owner.sessionToken;
    apiKey = await issueApiKey(app, session, ['checkout:write', 'split:write', 'payout:write'], 'all scopes');
    // For each scope, a key with every other scope: it must get 403 where that scope is required.
    keyWithoutScopes = {};
    for (const scope of ['checkout:write', 'split:write', 'payout:write']) {
      const others = ['checkout:write', 'split:write', 'payout:write'].filter((s) => s !== scope);
      keyWithoutScopes[scope] = await issueApiKey(app, session, others, `without ${scope}`);
    }
  });
  afterAll(async () => {
    await app.close();
  });

  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(openapi.components.schemas[schema.$ref.split('/').pop()!]!) : schema);

  it('lists the operations, with unique operation ids', () => {
    expect(entries.length).toBeGreaterThan(50);
    const ids = entries.map((e) => e.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every operation a success answer with a schema, in the {data} envelope ({data, meta} for lists)', () => {
    const missing: string[] = [];
    for (const { label, operation } of entries) {
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      if (success.length === 0) missing.push(`${label}: no 2xx answer`);
      for (const [status, response] of success) {
        const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
        if (!type || !media?.schema) {
          missing.push(`${label} ${status}: no schema`);
          continue;
        }
        if (NOT_ENVELOPED.has(label)) continue;
        const schema = resolve(media.schema);
        if (type !== 'application/json' || !schema.properties?.data) {
          missing.push(`${label} ${status}: not a {data} envelope`);
          continue;
        }
        const data = resolve(schema.properties.data);
        const item = data.type === 'array' ? resolve(data.items ?? {}) : data;
        if (!item.properties || Object.keys(item.properties).length === 0) missing.push(`${label} ${status}: data has no properties`);
        if (data.type === 'array' && schema.properties.meta)
          expect(Object.keys(resolve(schema.properties.meta).properties ?? {})).toEqual(['page', 'limit', 'total', 'totalPages']);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists paged answers with meta wherever the call takes ?page and ?limit', () => {
    const paged = entries.filter((e) => (e.operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'page'));
    expect(paged.length).toBeGreaterThan(4);
    for (const { operation, label } of paged) {
      const schema = resolve(operation.responses['200']!.content!['application/json']!.schema!);
      expect([label, Object.keys(schema.properties ?? {})]).toEqual([label, ['data', 'meta']]);
    }
  });

  it('gives every operation error answers in the {error:{code,message,details}} envelope, each naming its stable codes', () => {
    const problems: string[] = [];
    const envelope = resolve({ $ref: '#/components/schemas/ErrorDto' });
    expect(Object.keys(envelope.properties ?? {})).toEqual(['code', 'message', 'details']);
    for (const { label, operation } of entries) {
      const errors = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
      if (errors.length === 0) problems.push(`${label}: no error answers`);
      for (const [status, response] of errors) {
        if (OWN_ERROR_BODY.has(`${label} ${status}`)) continue;
        const media = response.content?.['application/json'];
        const error = media?.schema?.properties?.error;
        const codes = error?.allOf?.[1]?.properties?.code?.enum as string[] | undefined;
        if (error?.allOf?.[0]?.$ref !== '#/components/schemas/ErrorDto' || !codes?.length) {
          problems.push(`${label} ${status}: not the error envelope with codes`);
          continue;
        }
        for (const code of codes) {
          if (!/^[A-Z][A-Z0-9_]+$/.test(code)) problems.push(`${label} ${status}: ${code} is not an upper-snake code`);
          if (media!.examples?.[code]?.value.error.code !== code) problems.push(`${label} ${status}: no example of ${code}`);
        }
      }
      if (operation.security?.length && !operation.responses['401']) problems.push(`${label}: takes a credential but documents no 401`);
      if (operation.requestBody && !operation.responses['400']) problems.push(`${label}: takes a body but documents no 400`);
    }
    expect(problems).toEqual([]);
  });

  it('names the rule codes of the calls a client most needs (not only the generic ones)', () => {
    const codesOf = (method: string, path: string, status: string) =>
      openapi.paths[path]![method]!.responses[status]?.content?.['application/json']?.schema?.properties?.error?.allOf?.[1]?.properties?.code?.enum ?? [];
    expect(codesOf('post', '/api/commerce/integration/splits', '422')).toEqual(
      expect.arrayContaining(['SPLIT_ENTERPRISE_UNKNOWN', 'SPLIT_AP_CONTACT_INVALID', 'SPLIT_INSTANT_PAYOUT_NEEDS_WALLET_EMAIL']),
    );
    expect(codesOf('post', '/api/commerce/integration/splits', '400')).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'SPLIT_MARGIN_CAP_EXCEEDED', 'MALFORMED_BODY']));
    expect(codesOf('post', '/api/commerce/splits/{id}/approve', '409')).toEqual(expect.arrayContaining(['SPLIT_NOT_PENDING_APPROVAL', 'SPLIT_CHANGED_SINCE_REVIEW']));
    expect(codesOf('post', '/api/commerce/splits/{id}/reject', '409')).toContain('SPLIT_CHANGED_SINCE_REVIEW');
    // Approve and reject name the revision reviewed (issue 23): required in the body.
    for (const route of ['/api/commerce/splits/{id}/approve', '/api/commerce/splits/{id}/reject']) {
      const body = openapi.paths[route]!.post!.requestBody?.content?.['application/json']?.schema;
      const schema = body?.$ref ? openapi.components.schemas[String(body.$ref).split('/').pop()!] : body;
      expect({ route, required: schema?.required, revision: schema?.properties?.revision?.type }).toEqual({ route, required: ['revision'], revision: 'integer' });
    }
    expect(codesOf('post', '/api/commerce/splits/{id}/approve', '404')).toContain('SPLIT_NOT_FOUND');
    expect(codesOf('post', '/api/commerce/integration/checkout', '403')).toEqual(expect.arrayContaining(['MISSING_SCOPE', 'CREDENTIAL_NOT_ALLOWED']));
    expect(codesOf('post', '/api/commerce/checkout/orders/{orderId}/confirm', '422')).toContain('CARD_DECLINED');
    expect(codesOf('post', '/api/auth/login', '401')).toContain('INVALID_CREDENTIALS');
  });

  it('declares a credential exactly where the service asks for one, the kind it takes and the scope', async () => {
    const wrong: string[] = [];
    for (const { method, path, operation, label } of entries) {
      const url = path.replace(/\{[^}]+\}/g, 'zz_unknown');
      // The documented example: a body the guard's 401 must come before, wherever the service checks it.
      const body = examplesOf(operation)[0]?.body ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
      const anonymous = await app.request(method, url, { body });
      const declared = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)).sort();
      const asksForCredential = anonymous.status === 401 && anonymous.body?.error?.code === 'UNAUTHENTICATED';
      if (asksForCredential !== declared.length > 0)
        wrong.push(`${label}: declares [${declared.join(', ')}] but answers ${anonymous.status} ${anonymous.body?.error?.code} without a credential`);
      // The kinds of credential the service has: an API key, a session, a Payout Embed token.
      for (const scheme of declared) if (!CREDENTIALS.includes(scheme) || !openapi.components.securitySchemes[scheme]) wrong.push(`${label}: unknown scheme ${scheme}`);
      const scope = operation['x-api-key-scope'];
      if (declared.includes('apiKey') !== Boolean(scope)) wrong.push(`${label}: an API key call must name its scope (x-api-key-scope)`);
      if (!declared.includes('apiKey') && !declared.includes('session')) continue; // public, or its own token (embedToken)
      // The kind it does not take is refused (403); the kinds it takes get past the guard. Logout ends its session: a spare one.
      const sessionToken = label === 'POST /api/auth/logout' ? (await signup(app, 'Leaver')).sessionToken : session;
      const asSession = (await app.request(method, url, { token: sessionToken, body })).status;
      const asKey = (await app.request(method, url, { token: apiKey, body })).status;
      if (declared.includes('session') !== (asSession !== 403 && asSession !== 401)) wrong.push(`${label}: session answered ${asSession}`);
      if (declared.includes('apiKey') !== (asKey !== 403 && asKey !== 401)) wrong.push(`${label}: API key answered ${asKey}`);
      if (scope && scope !== 'any') {
        const without = await app.request(method, url, { token: keyWithoutScopes[scope], body });
        if (without.status !== 403 || without.body?.error?.code !== 'MISSING_SCOPE') wrong.push(`${label}: a key without ${scope} answered ${without.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  /** Where `value` departs from `schema`: a field the schema does not name, a required one missing, a wrong type or enum value. */
  function departures(value: unknown, schema: Schema & { required?: string[]; additionalProperties?: unknown; nullable?: boolean }, where: string): string[] {
    const s = resolve(schema) as typeof schema;
    if (value === null) return s.nullable || s.allOf ? [] : [`${where}: null but not nullable`];
    if (s.allOf) return departures(value, Object.assign({}, ...s.allOf.map((part) => resolve(part))), where);
    if (Array.isArray(value))
      return s.type === 'array' ? value.flatMap((item, i) => departures(item, s.items ?? {}, `${where}[${i}]`)) : [`${where}: an array, documented ${s.type}`];
    if (typeof value === 'object') {
      if (s.additionalProperties && !s.properties) return [];
      const properties = s.properties ?? {};
      return [
        ...Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
          key in properties ? departures(child, properties[key]!, `${where}.${key}`) : [`${where}.${key}: undocumented`],
        ),
        ...(s.required ?? []).filter((key) => !(key in (value as object))).map((key) => `${where}.${key}: documented as required, missing`),
      ];
    }
    const type = s.type === 'integer' ? 'number' : s.type;
    if (type && typeof value !== type) return [`${where}: ${typeof value}, documented ${s.type}`];
    if (s.enum && !s.enum.includes(value)) return [`${where}: ${JSON.stringify(value)} not in the documented enum`];
    return [];
  }

  it("answers the dashboard's reads exactly as documented: every field named, required ones present, types and enums kept", async () => {
    const world = await setupSplitWorld(app, { sme: 'Docs SME', enterprise: 'Docs Enterprise' });
    const split = await createdSplit(app, world.sme.apiKey, splitBody(world));
    const enterprise = world.enterprise.sessionToken;
    expect((await app.request('PUT', `/api/commerce/split-settings/sme/${world.sme.companyId}`, { token: enterprise, body: { autoAccept: false, coverFees: true } })).status).toBe(
      200,
    );
    expect((await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: enterprise, body: { revision: split.revision } })).status).toBe(200);
    await app.eventCount(); // funding, transfers and their postings settle
    const reads: [string, string, string][] = [
      ['/api/auth/me', '/api/auth/me', world.sme.sessionToken],
      ['/api/commerce/api-keys', '/api/commerce/api-keys', world.sme.sessionToken],
      ['/api/commerce/activity', '/api/commerce/activity', world.sme.sessionToken],
      ['/api/commerce/balance', '/api/commerce/balance', world.sme.sessionToken],
      ['/api/commerce/splits/outgoing', '/api/commerce/splits/outgoing', world.sme.sessionToken],
      ['/api/commerce/splits/incoming', '/api/commerce/splits/incoming', enterprise],
      ['/api/commerce/splits/{id}', `/api/commerce/splits/${split.id}`, enterprise],
      ['/api/commerce/splits/{id}/history', `/api/commerce/splits/${split.id}/history`, enterprise],
      ['/api/commerce/splits/{id}/ledger', `/api/commerce/splits/${split.id}/ledger`, world.sme.sessionToken],
      ['/api/commerce/split-settings', '/api/commerce/split-settings', enterprise],
      ['/api/commerce/webhooks/event-types', '/api/commerce/webhooks/event-types', enterprise],
      ['/api/commerce/me/earnings', '/api/commerce/me/earnings', world.sme.sessionToken],
    ];
    const problems: string[] = [];
    for (const [template, url, token] of reads) {
      const answer = await app.request('GET', url, { token });
      const schema = openapi.paths[template]?.get?.responses[String(answer.status)]?.content?.['application/json']?.schema;
      if (answer.status !== 200 || !schema) {
        problems.push(`GET ${template}: ${answer.status}${schema ? '' : ', no documented schema'}`);
        continue;
      }
      const data = answer.body.data;
      // A list must not be empty here, or there would be nothing to compare.
      if (Array.isArray(data) && data.length === 0) problems.push(`GET ${template}: empty, nothing compared`);
      problems.push(...departures(answer.body, schema, `GET ${template}`));
    }
    expect(problems).toEqual([]);
  }, 30_000);

  /** The body Swagger UI offers: the operation's examples, or one built from the schema's property examples. */
  function examplesOf(operation: Operation): { name: string; body: unknown }[] {
    const media = operation.requestBody?.content['application/json'];
    if (!media) return [];
    if (media.examples) return Object.entries(media.examples).map(([name, example]) => ({ name, body: example.value }));
    if (media.example !== undefined) return [{ name: 'example', body: media.example }];
    return [{ name: 'from the schema', body: sample(media.schema ?? {}) }];
  }

  function sample(schema: Schema): unknown {
    if (schema.example !== undefined) return schema.example;
    const s = resolve(schema);
    if (s.example !== undefined) return s.example;
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sample(part) as object));
    if (s.default !== undefined) return s.default;
    if (s.enum) return s.enum[0];
    if (s.type === 'object' || s.properties) return Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, child]) => [key, sample(child)]));
    if (s.type === 'array') return [sample(s.items ?? {})];
    if (s.type === 'integer' || s.type === 'number') return 0;
    if (s.type === 'boolean') return true;
    return 'string';
  }

  it('offers a request-body example for every call with a body, and the service accepts each (not a 400)', async () => {
    const refused: string[] = [];
    let sent = 0;
    let successes = 0;
    for (const { method, path, operation, label } of entries) {
      const examples = examplesOf(operation);
      if (operation.requestBody) expect([label, examples.length]).not.toEqual([label, 0]);
      for (const { name, body } of examples) {
        // A fresh company each time, so one example's effects cannot make the next one's answer.
        const owner = await signup(app, 'Example');
        const declared = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
        const token = declared.includes('apiKey') ? await issueApiKey(app, owner.sessionToken, ['checkout:write', 'split:write', 'payout:write']) : owner.sessionToken;
        const url = path.replace(/\{[^}]+\}/g, 'zz_unknown');
        const response = await app.request(method, url, { token, body });
        sent++;
        if (response.status === 400 || response.status >= 500) refused.push(`${label} (${name}) -> ${response.status} ${response.text.slice(0, 300)}`);
        // Where the example succeeds, what came back is what the document says comes back.
        const documented = operation.responses[String(response.status)]?.content?.['application/json']?.schema;
        if (response.status < 300 && documented) {
          const data = resolve(resolve(documented).properties!.data!);
          const item = data.type === 'array' ? resolve(data.items!) : data;
          const got = Array.isArray(response.body.data) ? (response.body.data[0] ?? {}) : response.body.data;
          const undocumented = Object.keys(got).filter((key) => !(key in (item.properties ?? {})));
          if (undocumented.length > 0) refused.push(`${label} (${name}) -> ${response.status} with undocumented fields ${undocumented.join(', ')}`);
          successes++;
        }
      }
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(20);
    expect(successes).toBeGreaterThan(5);
  }, 60_000);
});
