import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** A list result: the envelope interceptor turns it into `{data, meta}`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly meta: PageMeta,
  ) {}

  static of<T>(items: T[], page: number, limit: number, total: number): Page<T> {
    return new Page(items, { page, limit, total, totalPages: Math.ceil(total / limit) });
  }
}

/** Every JSON success answer is `{data}` or, for lists, `{data, meta}` (docs/api.md#response-envelope). */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((result) => (result instanceof Page ? { data: result.items, meta: result.meta } : { data: (result as unknown) ?? null })));
  }
}
