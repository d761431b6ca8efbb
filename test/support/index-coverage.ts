import { CollectionSpec, Doc, DocumentReader, Filter, FindOptions, Range } from '../../src/platform/read-store/document-store.port';

/** The equality filters a query seeks by, as the store sends it: one per value of each `oneOf` field in its range. */
function seeksOf(filter: Filter = {}, range: Range = {}): Filter[] {
  return Object.entries(range).reduce<Filter[]>(
    (filters, [field, bounds]) => (bounds.oneOf?.length ? filters.flatMap((f) => [...new Set(bounds.oneOf)].map((value) => ({ ...f, [field]: value }))) : filters),
    [filter],
  );
}

/** A find or count a query sent: its collection, equality filter (with any `oneOf` field) and (finds) the field it sorts by first. */
export interface SentQuery {
  collection: string;
  filter: Filter;
  sortedBy?: string;
}

/**
 * A DocumentReader that records every find and count, answering `found` to finds (and 1 to counts), so a
 * spec can check that each filter a query class sends is served by an index.
 */
export function recordingReader(sent: SentQuery[], found: readonly (Doc & Record<string, unknown>)[] = []): DocumentReader {
  return {
    get: async () => null,
    find: async <T extends Doc>(collection: string, options: FindOptions = {}) => {
      const sortedBy = options.sort?.[0]?.field;
      for (const filter of seeksOf(options.filter, options.range)) sent.push({ collection, filter, ...(sortedBy ? { sortedBy } : {}) });
      return found as unknown as T[];
    },
    count: async (collection, filter = {}, range) => {
      for (const seek of seeksOf(filter, range)) sent.push({ collection, filter: seek });
      return 1;
    },
  };
}

/**
 * Whether an index serves a query: its leading fields are exactly the equality filter's fields, in any
 * order, and the field a find sorts by first comes next (unless the filter fixes it). A filter on more
 * fields than any index leads with makes the store read every document the index narrows to, which for a
 * list's COUNT is every document of the company; a sort no index follows makes it read and sort them all
 * before the page's first row.
 */
export function servedByIndex(collections: readonly CollectionSpec[], { collection, filter, sortedBy }: SentQuery): boolean {
  const fields = new Set(Object.keys(filter));
  const spec = collections.find((c) => c.name === collection);
  return (spec?.indexes ?? []).some((index) => {
    const leading = index.slice(0, fields.size);
    const filtered = leading.length === fields.size && leading.every((field) => fields.has(field));
    const sorted = sortedBy === undefined || fields.has(sortedBy) || index[fields.size] === sortedBy;
    return filtered && sorted;
  });
}
