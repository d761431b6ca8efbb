import { Doc, DocumentReader, Filter, FindOptions, Range } from './document-store.port';

type Sort = NonNullable<FindOptions['sort']>;

/**
 * A page of the documents that match `filter` and `range`, in `sort` order, and how many match in all. A
 * range may narrow a field to several values (`oneOf`: a list of bills that are open or partly paid).
 */
export function findPage<T extends Doc>(
  store: DocumentReader,
  collection: string,
  query: { filter: Filter; range?: Range; sort: Sort },
  page: number,
  limit: number,
): Promise<[T[], number]> {
  const { filter, range, sort } = query;
  return Promise.all([store.find<T>(collection, { filter, range, sort, skip: (page - 1) * limit, limit }), store.count(collection, filter, range)]);
}
