import type { FastifyReply, FastifyRequest } from 'fastify';
import { prefersCsv } from './content-negotiation';
import { CsvColumn, sendCsv } from './csv';
import { Page } from './envelope';

/** Rows a CSV export reads at a time from a paged list. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * Every row of an offset-paged list (newest first), read a page at a time, each row once: a row that
 * arrives during the walk pushes the others down a place, so a row seen on a page can show again on the
 * next; it is skipped by id. Only the ids are held, never the rows.
 */
export async function* everyRow<T extends { id: string }>(page: (page: number, limit: number) => Promise<T[]>, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<T> {
  const seen = new Set<string>();
  for (let number = 1; ; number += 1) {
    const rows = await page(number, pageSize);
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      yield row;
    }
    if (rows.length < pageSize) return;
  }
}

/**
 * A paged list's answer: with `Accept: text/csv`, every row matching its filters as a streamed CSV
 * attachment (no paging, docs/api.md#csv-exports); otherwise the page in the `{data, meta}` envelope.
 * For controllers that take the reply (`@Res()`), which the envelope interceptor then leaves alone.
 */
export async function sendListOrCsv<T extends { id: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  csv: { filename: string; columns: CsvColumn<T>[] },
  list: (page: number, limit: number) => Promise<Page<T>>,
  requested: { page: number; limit: number },
): Promise<void> {
  if (prefersCsv(request))
    return sendCsv(
      reply,
      csv.filename,
      csv.columns,
      everyRow(async (page, limit) => (await list(page, limit)).items),
    );
  const page = await list(requested.page, requested.limit);
  void reply.send({ data: page.items, meta: page.meta });
}
