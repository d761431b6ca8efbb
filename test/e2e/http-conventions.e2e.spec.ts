import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { signup, startTestApp, TestApp } from '../support/test-app';

describe('HTTP conventions', () => {
  let app: TestApp;
  let session: string;
  beforeAll(async () => {
    app = await startTestApp();
    session = (await signup(app)).sessionToken;
  });
  afterAll(async () => {
    await app.close();
  });

  const badBodies: [string, { body?: unknown; rawBody?: string; headers?: Record<string, string> }, number, string][] = [
    ['wrong types and unknown fields', { body: { name: 42, scopes: 'split:write', extra: true } }, 400, 'VALIDATION_FAILED'],
    ['missing fields', { body: {} }, 400, 'VALIDATION_FAILED'],
    ['unknown scope', { body: { name: 'x', scopes: ['everything'] } }, 400, 'VALIDATION_FAILED'],
    ['null body', { rawBody: 'null' }, 400, 'VALIDATION_FAILED'],
    ['array body', { rawBody: '[1,2]' }, 400, 'VALIDATION_FAILED'],
    ['malformed JSON', { rawBody: '{"name": ' }, 400, 'MALFORMED_BODY'],
    ['body over 1 MiB', { rawBody: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), scopes: ['split:write'] }) }, 413, 'PAYLOAD_TOO_LARGE'],
  ];

  it.each(badBodies)('rejects %s in the error envelope and appends nothing', async (_label, input, status, code) => {
    const before = await app.eventCount();
    const response = await app.request('POST', '/api/commerce/api-keys', { token: session, ...input });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Array) } });
    expect(await app.eventCount()).toBe(before);
  });

  it('lists every bad field in a validation error', async () => {
    const response = await app.request('POST', '/api/commerce/api-keys', { token: session, body: { name: 42, scopes: 'nope', extra: 1 } });
    const fields = new Set(response.body.error.details.map((d: { field: string }) => d.field));
    expect(fields).toEqual(new Set(['name', 'scopes', 'extra']));
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const response = await app.request('GET', '/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('serves health, metrics and the OpenAPI document', async () => {
    const health = await app.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ status: 'ok', eventStore: 'up', readStore: 'up' });
    expect(health.body.data.projections).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'identity', status: 'running' })]));

    const metrics = await app.request('GET', '/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(/paysplit_http_requests_total\{method="GET",route="\/health",status="200"\} \d+/);
    expect(metrics.text).toMatch(/paysplit_events_appended_total \d+/);
    expect(metrics.text).toContain('paysplit_projection_lag{projection="identity"}');
    expect(metrics.text).toContain('# TYPE paysplit_timers gauge');
    expect(metrics.text).toContain('# TYPE paysplit_sqlite_wal_bytes gauge');
    expect(metrics.text).toMatch(/^paysplit_sqlite_wal_bytes\{database="events"\} \d+$/m);
    expect(metrics.text).toMatch(/^paysplit_sqlite_wal_bytes\{database="read"\} \d+$/m);
    expect(metrics.text).toMatch(/^paysplit_sqlite_wal_bytes\{database="webhooks"\} \d+$/m);

    expect((await app.request('GET', '/docs')).status).toBe(200);
    const openapi = await app.request('GET', '/docs/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/api/auth/signup', '/api/commerce/api-keys', '/health']));
    // Create-checkout's body is checked by its own pipe, not class-validator; its schema is still documented.
    const createCheckout = openapi.body.paths['/api/commerce/integration/checkout'].post;
    expect(createCheckout.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateCheckoutRequestDto' });
    expect(openapi.body.components.schemas.CreateCheckoutRequestDto.required).toEqual(['amountMinorUnits', 'currency', 'provider', 'returnUrl']);
  });

  it('reads text/plain and form bodies (400 VALIDATION_FAILED when they do not fit) and refuses other content types with 415, as docs/api.md says', async () => {
    const post = (contentType: string, rawBody: string) => app.request('POST', '/api/auth/login', { rawBody, headers: { 'content-type': contentType } });
    expect((await post('text/plain', 'hello')).body.error.code).toBe('VALIDATION_FAILED');
    expect((await post('application/x-www-form-urlencoded', 'email=nope&password=x')).body.error.code).toBe('VALIDATION_FAILED');
    const xml = await post('application/xml', '<login/>');
    expect(xml.status).toBe(415);
    expect(xml.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('echoes a request id', async () => {
    const response = await app.request('GET', '/health', { headers: { 'x-request-id': 'req_from_client' } });
    expect(response.status).toBe(200);
  });
});

describe('configuration', () => {
  it.each([
    ['PORT', 'abc'],
    ['ROLE', 'boss'],
    ['EVENTSTORE_URL', 'not a url'],
    ['SANDBOX', 'yes'],
  ])('stops at start with a message naming %s', (variable, value) => {
    const result = spawnSync(process.execPath, [join(__dirname, '../../dist/src/main.js')], {
      env: { ...process.env, SANDBOX: 'true', [variable]: value },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`Invalid configuration: ${variable}`);
  });

  it('requires SECRETS_KEY outside the sandbox', () => {
    const result = spawnSync(process.execPath, [join(__dirname, '../../dist/src/main.js')], {
      env: { ...process.env, SANDBOX: 'false', SECRETS_KEY: '' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('SECRETS_KEY');
  });
});
