import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Security headers of every page a person sees (docs/decisions.md, "Page headers"): one place, so the
 * hosted checkout pages, the embed pages, the email landings and the dashboard send the same policy.
 *
 * The policy is strict: everything from the service's own origin, no inline script or style (the pages
 * load /assets/*), no plugins, no <base>. Only framing differs per page, so it is the one parameter.
 * `form-action` is left out on purpose: a hosted form posts to the service, which answers 303 to the
 * merchant's return URL, and browsers apply form-action to that redirect too.
 */

/** Who may frame the page: nobody, anyone (pages meant to be embedded anywhere), or a list of origins. */
export type FrameAncestors = 'none' | 'any' | readonly string[];

export function contentSecurityPolicy(frameAncestors: FrameAncestors): string {
  const ancestors =
    frameAncestors === 'none' || (Array.isArray(frameAncestors) && frameAncestors.length === 0)
      ? "'none'"
      : frameAncestors === 'any'
        ? '*'
        : (frameAncestors as readonly string[]).join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/**
 * Sets the headers of an HTML page: the CSP above, X-Frame-Options DENY when nobody may frame it (old
 * browsers ignore frame-ancestors), no Referer (page URLs carry tokens), no sniffing, no powerful
 * features, and no caching (pages show an order's or a session's live state).
 */
export function setPageHeaders(reply: FastifyReply, frameAncestors: FrameAncestors): FastifyReply {
  void reply
    .header('Content-Security-Policy', contentSecurityPolicy(frameAncestors))
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), usb=()')
    .header('Cache-Control', 'no-store');
  const nobody = frameAncestors === 'none' || (Array.isArray(frameAncestors) && frameAncestors.length === 0);
  if (nobody) void reply.header('X-Frame-Options', 'DENY');
  return reply;
}

/** Answers an HTML page with the page headers: one place for every module that serves a page. */
export function sendPage(reply: FastifyReply, status: number, html: string, frameAncestors: FrameAncestors): void {
  void setPageHeaders(reply.status(status).type('text/html; charset=utf-8'), frameAncestors).send(html);
}

/** Every answer of the service (API JSON, pages, assets, errors) says its Content-Type is to be believed. */
export function installNoSniff(fastify: FastifyInstance): void {
  // A callback hook (no promise and microtask per answer, as an async one costs).
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('X-Content-Type-Options')) void reply.header('X-Content-Type-Options', 'nosniff');
    done(null, payload);
  });
}
