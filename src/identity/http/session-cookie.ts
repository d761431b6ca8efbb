import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../platform/config/app-config';

/**
 * The dashboard's credential: the session token in an HttpOnly, SameSite=Strict cookie, so page
 * scripts never hold it. Only session tokens travel this way; an API key in the cookie is ignored.
 */
export const SESSION_COOKIE = 'paysplit_session';

/** The session token the request's Cookie header carries, or null. */
export function sessionTokenFromCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^sess_[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
  }
  return null;
}

function attributes(config: AppConfig, maxAgeSeconds: number): string {
  const secure = config.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  return `; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

export function setSessionCookie(reply: FastifyReply, config: AppConfig, token: string): void {
  void reply.header('set-cookie', `${SESSION_COOKIE}=${token}${attributes(config, config.sessionTtlSeconds)}`);
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig): void {
  void reply.header('set-cookie', `${SESSION_COOKIE}=${attributes(config, 0)}`);
}

/**
 * CSRF rule for cookie-authenticated calls (docs/api.md#credentials). A write (anything but GET, HEAD)
 * must name its Origin, and it must be the service's own: PUBLIC_BASE_URL's origin, or the origin the
 * request was addressed to (its Host), which a page of another site cannot make the browser send with
 * our cookie. A read may omit Origin (a top-level navigation does) but may not name a foreign one.
 */
export function originAllowed(request: FastifyRequest, config: AppConfig): boolean {
  const origin = request.headers.origin;
  const write = request.method !== 'GET' && request.method !== 'HEAD';
  if (origin === undefined) return !write;
  // A form posted by one of our own pages under `Referrer-Policy: no-referrer` carries `Origin: null`;
  // the browser's own Sec-Fetch-Site (which no page can set) still says where it came from.
  if (origin === 'null') return request.headers['sec-fetch-site'] === 'same-origin';
  if (origin === new URL(config.publicBaseUrl).origin) return true;
  const host = request.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}
