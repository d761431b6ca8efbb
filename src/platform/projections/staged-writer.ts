import { Doc, DocumentReader, DocumentWrite, Filter, FindOptions } from '../read-store/read-store.port';
import { ProjectionWriter } from './projection';

/**
 * Buffers a batch's writes so they commit atomically with the checkpoint. Reads see staged writes
 * first, so several events of one batch can update the same document.
 */
export class StagedWriter implements ProjectionWriter {
  private readonly staged = new Map<string, Map<string, Doc | null>>();

  constructor(private readonly reader: DocumentReader) {}

  put(collection: string, doc: Doc): void {
    this.collection(collection).set(doc.id, structuredClone(doc));
  }

  delete(collection: string, id: string): void {
    this.collection(collection).set(id, null);
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const staged = this.staged.get(collection);
    if (staged?.has(id)) {
      const doc = staged.get(id);
      return doc ? (structuredClone(doc) as T) : null;
    }
    return this.reader.get<T>(collection, id);
  }

  /** Queries inside a batch must not depend on staged writes: flush per event when they would. */
  async find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]> {
    if (this.staged.get(collection)?.size) throw new Error(`find on ${collection} with staged writes`);
    return this.reader.find<T>(collection, options);
  }

  async count(collection: string, filter?: Filter): Promise<number> {
    if (this.staged.get(collection)?.size) throw new Error(`count on ${collection} with staged writes`);
    return this.reader.count(collection, filter);
  }

  writes(): DocumentWrite[] {
    const writes: DocumentWrite[] = [];
    for (const [collection, docs] of this.staged) {
      for (const [id, doc] of docs) {
        writes.push(doc ? { kind: 'put', collection, doc } : { kind: 'delete', collection, id });
      }
    }
    return writes;
  }

  get size(): number {
    let n = 0;
    for (const docs of this.staged.values()) n += docs.size;
    return n;
  }

  private collection(name: string): Map<string, Doc | null> {
    let docs = this.staged.get(name);
    if (!docs) {
      docs = new Map();
      this.staged.set(name, docs);
    }
    return docs;
  }
}
