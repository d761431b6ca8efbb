/**
 * The headers every page a person sees must carry (src/platform/http/security-headers.ts), asserted
 * directive by directive so a test names what is missing.
 */
export function expectPageHeaders(headers: Headers, frameAncestors: string): void {
  const csp = headers.get('content-security-policy') ?? '';
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );
  expect(directives).toEqual({
    'default-src': "'self'",
    'script-src': "'self'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'connect-src': "'self'",
    'font-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'none'",
    'frame-ancestors': frameAncestors,
  });
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('permissions-policy')).toMatch(/camera=\(\)/);
  expect(headers.get('x-frame-options')).toBe(frameAncestors === "'none'" ? 'DENY' : null);
}
