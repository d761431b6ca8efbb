import { StreamableFile } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** A list result: sent as `{data, meta}`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly meta: PageMeta,
  ) {}

  static of<T>(items: T[], page: number, limit: number, total: number): Page<T> {
    return new Page(items, { page, limit, total, totalPages: Math.ceil(total / limit) });
  }
}

/** An answer that is already an envelope (an idempotent replay of a stored one): sent as it is. */
export class Enveloped {
  constructor(readonly body: unknown) {}
}

/** Every JSON success answer is `{data}` or, for lists, `{data, meta}` (docs/api.md#response-envelope). */
export function envelopeOf(result: unknown): unknown {
  if (result instanceof Page) return { data: result.items, meta: result.meta };
  if (result instanceof Enveloped) return result.body;
  return { data: result ?? null };
}

/**
 * Sends each route handler's result in the envelope. Nest calls the adapter's `reply` for what a handler
 * returns (a handler that answers through `@Res()` itself never reaches it, and the error filter sends its
 * own `{error}` body). It was a global interceptor: with any interceptor bound, Nest runs every request
 * through an RxJS pipeline (defer, mergeAll, a ReplaySubject, lastValueFrom), which cost the checkout
 * bench's api process about a sixth of its CPU per create (docs/decisions.md, session 56).
 */
export class EnvelopingFastifyAdapter extends FastifyAdapter {
  override reply(response: Parameters<FastifyAdapter['reply']>[0], body: unknown, statusCode?: number) {
    return super.reply(response, body instanceof StreamableFile ? body : envelopeOf(body), statusCode);
  }
}
