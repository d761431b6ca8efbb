import type { FastifyRequest } from 'fastify';

/** The quality the Accept header gives a media type: its most specific matching range (exact, then the type wildcard, then the full wildcard); 0 when none matches. */
function quality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const value = q ? Math.min(1, Number(q[1]) || 0) : 1;
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity > best.specificity) best = { specificity, q: value };
  }
  return best.q;
}

/**
 * True when the client prefers an HTML page to JSON: a browser opening a link from an email
 * (`Accept: text/html,...,*\/*;q=0.8`). An API client (`application/json`, `*\/*`, or no Accept) gets
 * JSON; on a tie JSON wins, so nothing that asked for JSON before gets a page now.
 */
export function prefersHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  return quality(accept, 'text/html') > quality(accept, 'application/json');
}

/** True when the client asks for CSV over JSON (`Accept: text/csv`): the lists that export answer it (docs/api.md#csv-exports). */
export function prefersCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  return quality(accept, 'text/csv') > quality(accept, 'application/json');
}
