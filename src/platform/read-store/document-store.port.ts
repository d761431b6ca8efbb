import { NewTimer } from './timer-store.port';

/**
 * Documents built by projections and the projections' own bookkeeping (generation, checkpoint, last
 * stream revision applied). Contract: test/contract/document-store.contract.ts.
 *
 * Projection collections are versioned by generation so a rebuild can fill a shadow generation while
 * the API keeps reading the active one, then swap atomically.
 */
export interface Doc {
  id: string;
}

/** A document's field by name, for code that filters and sorts any document type (stores, staged writes). */
export function fieldOf(doc: Doc, field: string): unknown {
  return (doc as unknown as Record<string, unknown>)[field];
}

export type FilterValue = string | number | boolean | null;
/** Equality on top-level fields, combined with AND. */
export type Filter = Record<string, FilterValue>;

/**
 * Bounds on top-level fields, combined with AND (and with the filter): strings compare as strings, numbers as
 * numbers. `oneOf`: the value equals one of these (of the same type; an empty list matches nothing), so a list
 * narrowed to several statuses is one indexed query with one order and one count.
 */
export type Bounds = { gt?: string | number; gte?: string | number; lt?: string | number; lte?: string | number; oneOf?: readonly (string | number)[] };
export type Range = Record<string, Bounds>;

/** Whether a field's value is within its bounds (how StagedWriter and tests match a range like the stores do). */
export function withinBounds(value: unknown, bounds: Bounds): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  if (bounds.gt !== undefined && !(typeof value === typeof bounds.gt && value > bounds.gt)) return false;
  if (bounds.gte !== undefined && !(typeof value === typeof bounds.gte && value >= bounds.gte)) return false;
  if (bounds.lt !== undefined && !(typeof value === typeof bounds.lt && value < bounds.lt)) return false;
  if (bounds.lte !== undefined && !(typeof value === typeof bounds.lte && value <= bounds.lte)) return false;
  if (bounds.oneOf !== undefined && !bounds.oneOf.includes(value)) return false;
  return true;
}

export interface FindOptions {
  filter?: Filter;
  /** Range bounds (e.g. a cursor: `{ key: { lt: cursor } }`); a document without the field never matches. */
  range?: Range;
  sort?: { field: string; direction: 'asc' | 'desc' }[];
  skip?: number;
  limit?: number;
}

/** What queries need: the active generation of every projection's documents. */
export interface DocumentReader {
  get<T extends Doc>(collection: string, id: string): Promise<T | null>;
  find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]>;
  /** `range` as in find (issue 29: the merchant's orders between two dates). */
  count(collection: string, filter?: Filter, range?: Range): Promise<number>;
}

/** A collection a projection owns, with the top-level fields it is queried by. */
export interface CollectionSpec {
  name: string;
  indexes?: string[][];
  /**
   * Top-level fields every document has (not null) and no two documents share, each with an index. The
   * store enforces both (a commit that breaks either fails) and so needs no id tiebreak after a sort on
   * one of them: such a sort is served from an index instead of being sorted again (issue 31, books CSV).
   */
  unique?: string[];
  /**
   * Documents that change far less often than they are read (a company, its settings, a roster's
   * sub-vendors): the SQLite store keeps their JSON in memory and answers `get`/`getMany` from it while
   * the projection's checkpoint has not moved (ReadMostlyDocuments). MongoDB ignores it.
   */
  readMostly?: boolean;
}

/**
 * The part of a sort that can decide an order, and whether the stores' id tiebreak must follow it: a sort
 * is cut after its first unique field (no two documents tie on it, so nothing after it ever decides).
 */
export function decisiveSort(sort: FindOptions['sort'] = [], unique: ReadonlySet<string>): { sort: NonNullable<FindOptions['sort']>; tiebreak: boolean } {
  const cut = sort.findIndex((s) => unique.has(s.field));
  return cut >= 0 ? { sort: sort.slice(0, cut + 1), tiebreak: false } : { sort, tiebreak: true };
}

/** A unique field's value in a document about to be put: refuses a missing or null one (it would tie with others). */
export function assertUniqueFieldsPresent(collection: string, doc: Doc, unique: Iterable<string>): void {
  for (const field of unique) {
    if (fieldOf(doc, field) == null) throw new Error(`Document ${doc.id} of ${collection} has no ${field}, which is unique in that collection`);
  }
}

export type DocumentWrite = { kind: 'put'; collection: string; doc: Doc } | { kind: 'delete'; collection: string; id: string };

export interface ProjectionCommit {
  projection: string;
  generation: number;
  /** Global position of the last event this commit covers. */
  checkpoint: number;
  /**
   * The checkpoint the batch was read after, when the committer knows it. A stored checkpoint past it
   * means another runner (one that took the lease over) applied some of these events already: the
   * commit is 'stale' and writes nothing.
   */
  after?: number | null;
  /** Last revision applied per stream, for duplicate and gap detection. */
  streamRevisions: Record<string, number>;
  writes: DocumentWrite[];
  /** Timers a process manager scheduled while processing the batch: stored with its checkpoint (idempotent on id). */
  timers?: NewTimer[];
  /**
   * A rebuild's batch into a shadow generation, which nothing reads before activateGeneration: the store
   * may acknowledge it before it is durable. Activation is durable, and on SQLite its fsync carries every
   * batch before it; a rebuild cut short is discarded anyway.
   */
  shadow?: boolean;
  /**
   * A live read model's batch: the store may answer once the commit is made and readable by every
   * connection, before it is on disk, so the runner applies the next events while the fsync runs (a slow
   * fsync held every read model, and the writes waiting on them, for its whole length). A power cut can
   * only roll the read model back to an earlier commit, documents and checkpoint together, whose events
   * are applied again. `synced()` says when, or whether, it reached the disk.
   */
  beforeDisk?: boolean;
}

export type CommitOutcome = 'committed' | 'retired' | 'stale';

/** Both adapters' rule: a commit is stale if the stored checkpoint reached its end, or passed its start. */
export function isStale(stored: number | null, commit: Pick<ProjectionCommit, 'checkpoint' | 'after'>): boolean {
  if (stored === null) return false;
  return stored >= commit.checkpoint || (commit.after !== undefined && stored > (commit.after ?? -1));
}

export interface ProjectionState {
  projection: string;
  activeGeneration: number;
  checkpoint: number | null;
  /**
   * The projection version (Projection.version) the active generation was built with; 1 for a generation
   * recorded before versions existed. Older than the code's version: the runner rebuilds it at start.
   */
  version: number;
  status: 'running' | 'stalled';
  error: string | null;
}

/** A reader that also fetches several documents of a collection in one query (both read stores are). */
export interface BatchDocumentReader extends DocumentReader {
  /** Each id's document or null, in the order asked. */
  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<(T | null)[]>;
}

export interface DocumentStore extends BatchDocumentReader {
  /**
   * Declares a projection and its collections; creates generation 1, built with `version` (default 1), if
   * the projection is new. Idempotent: an existing projection's generations keep the version they have.
   */
  registerProjection(projection: string, collections: CollectionSpec[], version?: number): Promise<void>;
  projectionState(projection: string): Promise<ProjectionState>;
  /**
   * The states of several projections in one read (read-your-writes checks every projection reading a
   * written stream after each commit), in the order asked. Throws on an unknown projection, like
   * projectionState.
   */
  projectionStates(projections: readonly string[]): Promise<ProjectionState[]>;
  /** Reads documents of one generation (a projection applying events reads its own generation). */
  generationReader(projection: string, generation: number): DocumentReader;
  checkpointOf(projection: string, generation: number): Promise<number | null>;
  streamRevisionOf(projection: string, generation: number, streamId: string): Promise<number | null>;
  /**
   * Atomically applies the writes, stages the timers and advances the checkpoint and stream revisions.
   * Writes nothing and returns 'retired' when the generation has been replaced by a rebuild, or 'stale'
   * when the stored checkpoint is already at or past this one (another worker applied it first).
   */
  commitProjection(commit: ProjectionCommit): Promise<CommitOutcome>;
  /** Resolves once every commit answered so far is on disk; rejects if the fsync that carried one failed. */
  synced(): Promise<void>;
  /** Creates an empty shadow generation for a rebuild, to be built with `version` (default 1), and returns its number. */
  createShadowGeneration(projection: string, version?: number): Promise<number>;
  /** Makes the generation active and drops the previous one. */
  activateGeneration(projection: string, generation: number): Promise<void>;
  /**
   * Retires and drops every generation but the active one (shadows an interrupted rebuild left) and
   * returns their numbers. Only a rebuild that holds the projection's rebuild lease may call it.
   */
  discardShadowGenerations(projection: string): Promise<number[]>;
  /** Marks the projection stalled (e.g. a gap in a stream) so status and health report it; null clears. */
  setProjectionError(projection: string, error: string | null): Promise<void>;
  /**
   * Calls back when projections may have committed in another process: a hint for read-your-writes
   * waiters to re-check early. It may fire spuriously or not at all; waiters keep polling.
   */
  watchCommits(onCommit: () => void): () => void;
}

/** Queries inject this; it is the same store as DOCUMENT_STORE, seen through DocumentReader. */
export const DOCUMENT_READER = Symbol('DOCUMENT_READER');
export const DOCUMENT_STORE = Symbol('DOCUMENT_STORE');
