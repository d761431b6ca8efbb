import { Document, Filter as MongoFilter, IndexSpecification } from 'mongodb';
import { decisiveSort, Filter, FindOptions, Range } from '../document-store.port';
import { assertIdentifier } from '../identifier';

/**
 * The pure query building of the MongoDB read store, unit-tested without a server (mongo-queries.spec.ts).
 */

/** Serves listOperational: equality on '_id.collection', sorted by '_id.id' (the _id index cannot). */
export const OPERATIONAL_LIST_INDEX = { '_id.collection': 1, '_id.id': 1 } as const satisfies IndexSpecification;

/**
 * Equality on top-level fields; `{field: null}` matches a null or missing field, like json_extract(...) IS NULL.
 * Range bounds become $gt/$gte/$lt/$lte with a $type check, so a bound of one type never matches a value of
 * the other, as in the SQLite adapter; `oneOf` becomes $in (BSON equality: a number never equals a string).
 */
export function toQuery<T extends Document>(filter: Filter = {}, range: Range = {}): MongoFilter<T> {
  const query: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(filter)) query[assertIdentifier(field)] = value;
  for (const [field, bounds] of Object.entries(range)) {
    const name = assertIdentifier(field);
    const conditions: Record<string, unknown> = {};
    for (const bound of ['gt', 'gte', 'lt', 'lte'] as const) {
      const value = bounds[bound];
      if (value === undefined) continue;
      conditions[`$${bound}`] = value;
      conditions.$type = typeof value === 'number' ? 'number' : 'string';
    }
    if (bounds.oneOf !== undefined) conditions.$in = [...bounds.oneOf];
    if (Object.keys(conditions).length === 0) continue;
    query[name] = name in query ? { $eq: query[name], ...conditions } : conditions;
  }
  return query as MongoFilter<T>;
}

/**
 * Requested fields in order, then _id (= id) ascending as the tie-break, like the SQLite adapter; no
 * tie-break after a field of the collection's `unique` (decisiveSort), so an index on it serves the sort. A
 * field listed twice keeps its first direction, as in SQL (the driver turns the pairs into a Map, where the last would win).
 */
export function toSort(requested: FindOptions['sort'] = [], unique: ReadonlySet<string> = new Set()): [string, 1 | -1][] {
  const { sort, tiebreak } = decisiveSort(requested, unique);
  const pairs = new Map<string, 1 | -1>();
  for (const s of sort) {
    const field = assertIdentifier(s.field);
    if (!pairs.has(field)) pairs.set(field, s.direction === 'desc' ? -1 : 1);
  }
  return tiebreak ? [...pairs, ['_id', 1]] : [...pairs];
}

/** SQLite treats a negative LIMIT as none and a negative OFFSET as 0; MongoDB rejects or reinterprets them. */
export function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 ? n : undefined;
}

/**
 * Whether an index (its keys in order) serves a query with equality on `equality` and a sort on `sort`
 * without an in-memory sort: the equality fields form a prefix of the index (in any order) and the sort
 * fields follow it in order (all ascending, or all reversed).
 */
export function indexServes(index: Record<string, 1 | -1>, query: { equality: string[]; sort: [string, 1 | -1][] }): boolean {
  const keys = Object.entries(index);
  const prefix = keys.slice(0, query.equality.length).map(([field]) => field);
  if (query.equality.some((field) => !prefix.includes(field))) return false;
  const rest = keys.slice(query.equality.length, query.equality.length + query.sort.length);
  if (rest.length < query.sort.length) return false;
  const same = query.sort.every(([field, dir], i) => rest[i]![0] === field && rest[i]![1] === dir);
  const reversed = query.sort.every(([field, dir], i) => rest[i]![0] === field && rest[i]![1] === -dir);
  return same || reversed;
}
