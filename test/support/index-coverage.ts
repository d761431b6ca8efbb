import { CollectionSpec, Doc, DocumentReader, Filter } from '../../src/platform/read-store/document-store.port';

/** A find or count a query sent: its collection and equality filter. */
export interface SentQuery {
  collection: string;
  filter: Filter;
}

/**
 * A DocumentReader that records every find and count, answering `found` to finds (and 1 to counts), so a
 * spec can check that each filter a query class sends is served by an index.
 */
export function recordingReader(sent: SentQuery[], found: readonly (Doc & Record<string, unknown>)[] = []): DocumentReader {
  return {
    get: async () => null,
    find: async <T extends Doc>(collection: string, options: { filter?: Filter } = {}) => {
      sent.push({ collection, filter: options.filter ?? {} });
      return found as unknown as T[];
    },
    count: async (collection, filter = {}) => {
      sent.push({ collection, filter });
      return 1;
    },
  };
}

/**
 * Whether an index serves an equality filter: its leading fields are exactly the filter's fields, in any
 * order. A filter on more fields than any index leads with makes the store read every document the
 * index narrows to, which for a list's COUNT is every document of the company.
 */
export function servedByIndex(collections: readonly CollectionSpec[], { collection, filter }: SentQuery): boolean {
  const fields = new Set(Object.keys(filter));
  const spec = collections.find((c) => c.name === collection);
  return (spec?.indexes ?? []).some((index) => {
    const leading = index.slice(0, fields.size);
    return leading.length === fields.size && leading.every((field) => fields.has(field));
  });
}
