import { Doc, DocumentReader, DocumentWrite, fieldOf, Filter, FindOptions, Range, withinBounds } from '../read-store/document-store.port';
import { Frozen, sameSnapshot, snapshotOf, thaw } from './document-snapshot';
import { ProjectionWriter } from './projection';

/**
 * Buffers a batch's writes so they commit atomically with the checkpoint. Reads see staged writes
 * first, so several events of one batch can update the same document.
 *
 * A staged document is a frozen snapshot (document-snapshot.ts): `put` copies only what is not frozen
 * already, `get` and `find` hand out copies. Or it is the working copy that `edit` handed out, copied
 * when read through the other methods and snapshotted at commit. Neither a structuredClone (29% of a
 * rebuild) nor the JSON text that replaced it (parse on every get, stringify on every put: 43% of the
 * splits rebuild) is made per event any more; the store serializes each document once, at commit.
 */
export class StagedWriter implements ProjectionWriter {
  private readonly staged = new Map<string, Map<string, Frozen<Doc> | null>>();
  /** Documents `edit` handed out: staged as they will be at commit. An id is here or in `staged`, not both. */
  private readonly working = new Map<string, Map<string, Doc>>();
  /**
   * What the reader returned this batch for documents the batch has not written (frozen; null when there
   * was none): nothing else writes this generation while its runner holds the lease, so they cannot
   * change before the batch commits. The ledger looked up a company balance for every owner of every
   * line it booked, most of them not companies: a read-store query each, 6% of its rebuild.
   */
  private readonly read = new Map<string, Map<string, Frozen<Doc> | null>>();
  /**
   * Documents `edit` copied from the store (not from this batch's writes), with what the store holds: one
   * edited back to that, or never changed, is not written. The ledger edits its Split record on every
   * event of the Split and changes it on few: a third of its writes of that record in the mixed bench
   * rewrote the stored document as it was.
   */
  private readonly editedFromStore = new Map<string, Map<string, Frozen<Doc>>>();

  constructor(private readonly reader: DocumentReader) {}

  put<T extends Doc>(collection: string, doc: T): void {
    const snapshot = snapshotOf<Doc>(doc);
    this.working.get(collection)?.delete(snapshot.id);
    this.editedFromStore.get(collection)?.delete(snapshot.id);
    this.collection(this.staged, collection).set(snapshot.id, snapshot);
  }

  delete(collection: string, id: string): void {
    this.working.get(collection)?.delete(id);
    this.editedFromStore.get(collection)?.delete(id);
    this.collection(this.staged, collection).set(id, null);
  }

  async edit<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const working = this.collection(this.working, collection);
    const edited = working.get(id);
    if (edited) return edited as T;
    const staged = this.staged.get(collection);
    const fromStore = !staged?.has(id);
    const original = fromStore ? await this.stored(collection, id) : staged!.get(id);
    // Copied once per batch, whatever the reader returned: from here on it is the writer's alone.
    const doc = thawed(original);
    if (!doc) return null;
    staged?.delete(id);
    working.set(id, doc);
    if (fromStore) this.collection(this.editedFromStore, collection).set(id, original!);
    return doc as T;
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const edited = this.working.get(collection)?.get(id);
    if (edited) return thaw(snapshotOf(edited as T));
    const staged = this.staged.get(collection);
    if (staged?.has(id)) {
      const doc = staged.get(id);
      return doc ? thaw(doc as Frozen<T>) : null;
    }
    return thawed(await this.stored(collection, id)) as T | null;
  }

  /** The stored document as the reader returned it, read once per batch. */
  private async stored(collection: string, id: string): Promise<Frozen<Doc> | null> {
    const read = this.collection(this.read, collection);
    const known = read.get(id);
    if (known !== undefined) return known;
    const doc = snapshotOf(await this.reader.get<Doc>(collection, id));
    read.set(id, doc);
    return doc;
  }

  /** Sees staged writes too: the stored matches, overlaid with this batch's puts and deletes. */
  async find<T extends Doc>(collection: string, options: FindOptions = {}): Promise<T[]> {
    const staged = this.stagedIn(collection);
    if (!staged.size) return this.reader.find<T>(collection, options);
    const byId = new Map<string, Doc>();
    for (const doc of await this.reader.find<Doc>(collection, { filter: options.filter, range: options.range })) byId.set(doc.id, doc);
    for (const [id, doc] of staged) {
      if (doc && matches(doc, options.filter) && inRange(doc, options.range)) byId.set(id, thaw(doc));
      else byId.delete(id);
    }
    const sorted = [...byId.values()].sort((a, b) => compareBy(a, b, options.sort ?? []));
    const start = options.skip ?? 0;
    // The stored documents were parsed for this call and the staged ones copied just now: they are the caller's own.
    return sorted.slice(start, options.limit === undefined ? undefined : start + options.limit) as T[];
  }

  async count(collection: string, filter?: Filter, range?: Range): Promise<number> {
    if (!this.staged.get(collection)?.size && !this.working.get(collection)?.size) return this.reader.count(collection, filter, range);
    return (await this.find(collection, { filter, range })).length;
  }

  /**
   * The staged documents themselves (frozen; the edited ones snapshotted now): a store serializes them,
   * nothing may change them. An edited document that still holds what the store does is left out.
   */
  writes(): DocumentWrite[] {
    const writes: DocumentWrite[] = [];
    for (const collection of new Set([...this.staged.keys(), ...this.working.keys()])) {
      const stored = this.editedFromStore.get(collection);
      for (const [id, doc] of this.stagedIn(collection)) {
        if (!doc) writes.push({ kind: 'delete', collection, id });
        else {
          const original = stored?.get(id);
          if (!original || !sameSnapshot(doc, original)) writes.push({ kind: 'put', collection, doc: doc as Doc });
        }
      }
    }
    return writes;
  }

  get size(): number {
    let n = 0;
    for (const docs of [...this.staged.values(), ...this.working.values()]) n += docs.size;
    return n;
  }

  /** Every staged put and delete of a collection, the edited documents as snapshots of how they are now. */
  private stagedIn(collection: string): Map<string, Frozen<Doc> | null> {
    const edited = this.working.get(collection);
    if (!edited?.size) return this.staged.get(collection) ?? new Map<string, Frozen<Doc> | null>();
    const staged = new Map(this.staged.get(collection));
    for (const [id, doc] of edited) staged.set(id, snapshotOf(doc));
    return staged;
  }

  private collection<V>(maps: Map<string, Map<string, V>>, name: string): Map<string, V> {
    let docs = maps.get(name);
    if (!docs) {
      docs = new Map();
      maps.set(name, docs);
    }
    return docs;
  }
}

function thawed(doc: Frozen<Doc> | null | undefined): Doc | null {
  return doc ? thaw(doc) : null;
}

function matches(doc: Frozen<Doc>, filter: Filter = {}): boolean {
  return Object.entries(filter).every(([field, value]) => (fieldOf(doc, field) ?? null) === value);
}

function inRange(doc: Frozen<Doc>, range: Range = {}): boolean {
  return Object.entries(range).every(([field, bounds]) => withinBounds(fieldOf(doc, field), bounds));
}

/** Same order as the stores: the sort fields, then id ascending (which the stores leave out after a unique field, where it never decides). */
function compareBy(a: Doc, b: Doc, sort: NonNullable<FindOptions['sort']>): number {
  for (const { field, direction } of sort) {
    const x = fieldOf(a, field) as string | number;
    const y = fieldOf(b, field) as string | number;
    if (x !== y) return (x < y ? -1 : 1) * (direction === 'desc' ? -1 : 1);
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
