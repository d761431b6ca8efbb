import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLES, isRole } from '../../src/identity/domain/role';
import { NET_TERMS_MAX_DAYS, NET_TERMS_MIN_DAYS } from '../../src/parties/domain/net-terms';
import { SPLIT_EVENT_TYPES } from '../../src/split/domain/split.events';
import { PROBATION_RETRIES, RETRY_DELAYS_SECONDS, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../src/webhooks/domain/webhook-event-types';
import { WEBHOOK_EVENT_CATALOGUE } from '../../src/webhooks/domain/webhook-event-catalogue';
import { startTestApp, TestApp } from '../support/test-app';

/** Cheap checks that the docs keep up with the code (issue 16, item 11). */
const doc = (name: string) => readFileSync(join(__dirname, '../../docs', name), 'utf8');

/** The part of a Markdown file under a heading, up to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = markdown.slice(start + heading.length);
  const next = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return next < 0 ? rest : rest.slice(0, next);
}

describe('docs', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('docs/api.md names every route of the OpenAPI document (METHOD /path, :params)', async () => {
    const openapi = (await app.request('GET', '/docs/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const api = doc('api.md');
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(openapi.paths)) {
      for (const method of Object.keys(operations)) {
        const route = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        // The route, not a longer one it is a prefix of: followed by a quote, a query or a space.
        if (!new RegExp(`${route.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?=[\`?\\s|,)])`).test(api)) missing.push(route);
      }
    }
    expect(missing).toEqual([]);
  });

  // Issue 30: the roles-per-route table is read against the x-roles of every session route, so it cannot drift.
  it("docs/api.md's roles-per-route table names every session route of the OpenAPI document once, with its x-roles", async () => {
    type Operation = { security?: Record<string, string[]>[]; 'x-roles'?: string[] };
    const openapi = (await app.request('GET', '/docs/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    const roles = (names: readonly string[]) => [...names].sort((a, b) => ROLES.indexOf(a as never) - ROLES.indexOf(b as never)).join(', ');
    const expected: string[] = [];
    for (const [path, operations] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!(operation.security ?? []).some((requirement) => 'session' in requirement)) continue;
        expected.push(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}: ${roles(operation['x-roles'] ?? ['(no x-roles)'])}`);
      }
    }
    const api = doc('api.md');
    const lines = api.slice(api.indexOf('**Roles per route.**')).split('\n');
    const header = lines.indexOf('| Roles | Routes |');
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(
      header + 2,
      lines.findIndex((line, i) => i > header && !line.startsWith('|')),
    );
    const documented: string[] = [];
    for (const row of rows) {
      const [, rolesColumn, routesColumn] = /^\| ([^|]+) \| ([^|]+) \|$/.exec(row) ?? [];
      expect({ row, parsed: rolesColumn !== undefined }).toEqual({ row, parsed: true });
      // The roles column names roles, then an optional remark in parentheses: "owner, admin (the default of a write)".
      const named = rolesColumn!
        .replace(/\(.*\)/, '')
        .split(',')
        .map((name) => name.trim());
      expect(named.filter((name) => !isRole(name))).toEqual([]);
      const routes = [...routesColumn!.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) \/[^`\s?]*)`/g)].map((m) => m[1]!);
      expect({ row, routes: routes.length > 0 }).toEqual({ row, routes: true });
      documented.push(...routes.map((route) => `${route}: ${roles(named)}`));
    }
    // Sorted lists, so a missing, extra, twice-listed or wrongly-roled route shows as a one-line difference.
    expect(documented.sort()).toEqual(expected.sort());
  });

  it("docs/webhooks.md's catalogue lists every webhook event type, and only those", () => {
    const catalogue = section(doc('webhooks.md'), '## 9. Event catalogue');
    const listed = [...catalogue.matchAll(/^\| `([a-z_.]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE].sort());
  });

  it("docs/webhooks.md's catalogue points at the payload declaration and names every field of its typed examples", () => {
    const catalogue = section(doc('webhooks.md'), '## 9. Event catalogue');
    const declared = [...catalogue.matchAll(/`(src\/[\w./-]+\.ts)`/g)].map((m) => m[1]!);
    expect(declared).toContain('src/webhooks/domain/webhook-payloads.ts');
    expect(declared.filter((file) => !existsSync(join(__dirname, '../..', file)))).toEqual([]);
    const rows = new Map([...catalogue.matchAll(/^\| `([a-z_.]+)` \|[^|]*\|([^|]*)\|/gm)].map((m) => [m[1]!, m[2]!]));
    const fields = (type: string): string[] => {
      const column = rows.get(type) ?? '';
      const named = [...column.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
      return column.trim().startsWith('same') ? [...fields('payout_embed.session.created'), ...named] : named;
    };
    const undocumented = WEBHOOK_EVENT_CATALOGUE.flatMap(({ type, example }) =>
      Object.keys(example.data)
        .filter((key) => !fields(type).includes(key))
        .map((key) => `${type}.${key}`),
    );
    expect(undocumented).toEqual([]);
  });

  it("docs/api.md lists every event of a Split's stream", () => {
    const api = doc('api.md');
    const paragraph = api.slice(api.indexOf("Events appended to the Split's stream"));
    const listed = new Set([...paragraph.slice(0, paragraph.indexOf('\n\n')).matchAll(/`(split\.[a-z_.]+)`/g)].map((m) => m[1]));
    expect([...SPLIT_EVENT_TYPES].filter((type) => !listed.has(type))).toEqual([]);
  });

  // Issue 29 item 7: the dashboard's form, the API and the docs name the same net-terms bounds.
  it('docs/api.md, docs/dashboard.md, the API and the dashboard form agree on the net terms (0 to 365 days)', () => {
    expect(doc('api.md')).toContain(`\`netTermsDays\`, integer ${NET_TERMS_MIN_DAYS} to ${NET_TERMS_MAX_DAYS}`);
    expect(doc('dashboard.md')).toContain(`net terms (${NET_TERMS_MIN_DAYS} to ${NET_TERMS_MAX_DAYS} days)`);
    const form = readFileSync(join(__dirname, '../../src/dashboard/web/src/pages/approvals/net-terms.tsx'), 'utf8');
    expect(form).toContain('max={NET_TERMS_MAX_DAYS}');
    expect(form).toContain('min={NET_TERMS_MIN_DAYS}');
  });

  // Issue 29 item 7: the Webhooks page words probation as docs/webhooks.md and the delivery worker do.
  it('the dashboard, docs/webhooks.md and the delivery worker agree on probation (3 attempts in all, until the first 2xx)', () => {
    const attempts = PROBATION_RETRIES + 1;
    expect(doc('webhooks.md')).toContain(`only the first ${PROBATION_RETRIES} retries, so ${attempts} attempts in all`);
    const page = readFileSync(join(__dirname, '../../src/dashboard/web/src/pages/webhooks/endpoints.tsx'), 'utf8').replace(/\s+/g, ' ');
    expect(page).toContain(`a failed delivery is tried ${attempts} times in all instead of ${RETRY_DELAYS_SECONDS.length + 1}, until the endpoint first answers 2xx`);
    expect(page).not.toContain('a few deliveries at a time');
  });
});
