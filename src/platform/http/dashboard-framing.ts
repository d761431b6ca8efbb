import type { FastifyInstance } from 'fastify';

/**
 * No page of another origin may frame the dashboard (clickjacking of a signed-in user's approve,
 * rotate or withdraw buttons): every answer under /dashboard, whatever serves it, carries
 * X-Frame-Options DENY (old browsers) and CSP frame-ancestors 'none' (new ones). A policy the page
 * already sets keeps its other directives.
 */
export function installDashboardFraming(fastify: FastifyInstance): void {
  // A callback hook, not an async one: this runs on every answer, and an async hook costs each answer a promise and a microtask.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const path = request.url.split('?', 1)[0]!;
    if (path !== '/dashboard' && !path.startsWith('/dashboard/')) return done(null, payload);
    void reply.header('X-Frame-Options', 'DENY');
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy !== 'string' || policy.trim() === '') void reply.header('Content-Security-Policy', "frame-ancestors 'none'");
    else if (!/(^|;)\s*frame-ancestors\b/i.test(policy)) void reply.header('Content-Security-Policy', `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`);
    done(null, payload);
  });
}
