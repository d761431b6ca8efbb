import { Doc, DocumentReader, fieldOf, Filter, FilterValue, FindOptions } from './document-store.port';

type Sort = NonNullable<FindOptions['sort']>;

/** A page of the documents that match `filter`, in `sort` order, and how many match in all. */
export function findPage<T extends Doc>(store: DocumentReader, collection: string, query: { filter: Filter; sort: Sort }, page: number, limit: number): Promise<[T[], number]> {
  const { filter, sort } = query;
  return Promise.all([store.find<T>(collection, { filter, sort, skip: (page - 1) * limit, limit }), store.count(collection, filter)]);
}

/**
 * A page of the documents whose `field` is any of `values` (the store filters by equality only): the first
 * page * limit of each value in `sort` order, merged, then the page's slice; the total is the sum of the
 * counts. Each query is one a single-value filter sends, so the same indexes serve it.
 */
export async function pageOfAny<T extends Doc>(
  store: DocumentReader,
  collection: string,
  query: { filter: Filter; field: string; values: readonly FilterValue[]; sort: Sort },
  page: number,
  limit: number,
): Promise<[T[], number]> {
  const { filter, field, values, sort } = query;
  const each = await Promise.all(
    [...new Set(values)].map(async (value) => {
      const narrowed = { ...filter, [field]: value };
      return Promise.all([store.find<T>(collection, { filter: narrowed, sort, limit: page * limit }), store.count(collection, narrowed)]);
    }),
  );
  const merged = each
    .flatMap(([items]) => items)
    .sort(inOrder(sort))
    .slice((page - 1) * limit, page * limit);
  return [merged, each.reduce((sum, [, count]) => sum + count, 0)];
}

/** The order the stores sort in: by each field in turn, values compared as stored (SQLite's BINARY collation for text). */
function inOrder(sort: Sort): (a: Doc, b: Doc) => number {
  return (a, b) => {
    for (const { field, direction } of sort) {
      const [x, y] = [fieldOf(a, field), fieldOf(b, field)] as [string | number, string | number];
      if (x === y) continue;
      const ascending = x < y ? -1 : 1;
      return direction === 'asc' ? ascending : -ascending;
    }
    return 0;
  };
}
