import { BatchDocumentReader, Doc, DocumentReader, Filter, FindOptions, Range } from './document-store.port';

/**
 * A reader for one request that reads many documents by id (a Split's roster: a sub-vendor and a wallet
 * per row): `prefetch` fetches a collection's documents in one query, and `get` answers those from
 * memory; everything else goes to the store. A prefetched document is the same object on every get, so
 * callers treat it as read-only. Lives as long as the request: it never sees later writes.
 */
export class PrefetchedDocuments implements DocumentReader {
  private readonly fetched = new Map<string, Map<string, Doc | null>>();

  constructor(private readonly store: BatchDocumentReader) {}

  async prefetch(collection: string, ids: readonly string[]): Promise<void> {
    const known = this.fetched.get(collection) ?? new Map<string, Doc | null>();
    const wanted = [...new Set(ids)].filter((id) => !known.has(id));
    if (wanted.length === 0) return;
    const docs = await this.store.getMany(collection, wanted);
    wanted.forEach((id, index) => known.set(id, docs[index] ?? null));
    this.fetched.set(collection, known);
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const known = this.fetched.get(collection);
    if (known?.has(id)) return known.get(id) as T | null;
    return this.store.get<T>(collection, id);
  }

  find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]> {
    return this.store.find<T>(collection, options);
  }

  count(collection: string, filter?: Filter, range?: Range): Promise<number> {
    return this.store.count(collection, filter, range);
  }
}
