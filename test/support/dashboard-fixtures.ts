import type { TestResponse } from './test-app';

/** The dashboard's own origin in the dashboard e2e suites (PUBLIC_BASE_URL of their app). */
export const OWN_ORIGIN = 'http://dashboard.test';
export const DASHBOARD_ENV = { PUBLIC_BASE_URL: OWN_ORIGIN };

/** The `paysplit_session=...` pair of a Set-Cookie answer, as a browser would send it back. */
export function sessionCookie(response: TestResponse): string {
  const header = response.headers.get('set-cookie');
  const pair = header?.split(';', 1)[0];
  if (!pair?.startsWith('paysplit_session=')) throw new Error(`no session cookie in ${header}`);
  return pair;
}

/** Headers of a browser call from the dashboard page: the session cookie, and the page's Origin. */
export function browser(cookie: string, origin: string | null = OWN_ORIGIN): Record<string, string> {
  return origin === null ? { cookie } : { cookie, origin };
}
