import {
  AnyBulkWriteOperation,
  ClientSession,
  Collection,
  Db,
  Document,
  Filter as MongoFilter,
  MongoClient,
  MongoClientOptions,
  MongoServerError,
  TransactionOptions,
  WriteConcern,
} from 'mongodb';
import {
  CollectionSpec,
  CommitOutcome,
  Doc,
  BatchDocumentReader,
  DocumentReader,
  DocumentWrite,
  Filter,
  FindOptions,
  ProjectionCommit,
  ProjectionState,
  Range,
  isStale,
  assertUniqueFieldsPresent,
} from '../document-store.port';
import { ReadStore } from '../read-store.port';
import { NewTimer, Timer, TimerCount, TimerStatus } from '../timer-store.port';
import { assertIdentifier } from '../identifier';
import { OPERATIONAL_LIST_INDEX, positive, toQuery, toSort } from './mongo-queries';

/** Server error codes this adapter relies on (stable codes from the server's error_codes.yml). */
const DUPLICATE_KEY = 11000;
const NAMESPACE_EXISTS = 48;

/**
 * Commits, registrations and generation swaps are multi-document transactions: they need a replica set
 * (or a sharded cluster). The docker compose runs a single-node replica set; a standalone mongod refuses them.
 */
const TRANSACTION: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: new WriteConcern('majority'),
  readPreference: 'primary',
};

interface ProjectionRecord {
  _id: string;
  activeGeneration: number;
  status: 'running' | 'stalled';
  error: string | null;
}

interface GenerationRecord {
  name: string;
  generation: number;
  checkpoint: number | null;
  retired: boolean;
  /** The projection version the generation was built with; absent (written before versions) counts as 1. */
  version?: number;
}

interface CollectionRecord {
  _id: string;
  projection: string;
  spec: CollectionSpec;
}

interface StreamRevisionRecord {
  name: string;
  generation: number;
  streamId: string;
  revision: number;
}

interface OperationalRecord {
  _id: { collection: string; id: string };
  body: Doc;
}

interface AllowanceWindow extends Doc {
  used: number;
  expiresAt: string;
}

interface LeaseRecord {
  _id: string;
  owner: string;
  expiresAtMs: number;
}

interface TimerRecord {
  _id: string;
  kind: string;
  dueAt: string;
  payload: Record<string, unknown>;
  attempts: number;
  status: TimerStatus;
  leaseOwner: string | null;
  leaseUntilMs: number | null;
  lastError: string | null;
  doneAtMs?: number;
}

/** A projection document as stored: the document's own fields (id included) keyed by `_id` = id. */
interface StoredDoc {
  _id: string;
  [field: string]: unknown;
}

/**
 * Read store in one MongoDB database, mirroring SqliteReadStore: bookkeeping collections named like the
 * SQLite tables, and one collection per projection collection and generation (`rm_<collection>_g<generation>`).
 */
export class MongoReadStore implements ReadStore {
  private readonly projections: Collection<ProjectionRecord>;
  private readonly generations: Collection<GenerationRecord>;
  private readonly collections: Collection<CollectionRecord>;
  private readonly revisions: Collection<StreamRevisionRecord>;
  private readonly operational: Collection<OperationalRecord>;
  private readonly leases: Collection<LeaseRecord>;
  private readonly timers: Collection<TimerRecord>;
  /** Collection -> owning projection. Ownership never changes once registered, so it is safe to cache. */
  private readonly owners = new Map<string, string>();

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.projections = db.collection('projections');
    this.generations = db.collection('projection_generations');
    this.collections = db.collection('projection_collections');
    this.revisions = db.collection('projection_stream_revisions');
    this.operational = db.collection('operational');
    this.leases = db.collection('leases');
    this.timers = db.collection('timers');
  }

  /** Connects and prepares the bookkeeping collections. The database defaults to the URL's path, else 'paysplit'. */
  static async connect(url: string, dbName?: string, options: MongoClientOptions = {}): Promise<MongoReadStore> {
    // ignoreUndefined: undefined fields are left out, as JSON.stringify does in the SQLite adapter.
    const client = await MongoClient.connect(url, { ...options, ignoreUndefined: true });
    try {
      const store = new MongoReadStore(client, client.db(dbName ?? databaseFromUrl(url) ?? 'paysplit'));
      await store.prepare();
      return store;
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async registerProjection(projection: string, collections: CollectionSpec[], version = 1): Promise<void> {
    assertIdentifier(projection);
    for (const spec of collections) assertIdentifier(spec.name);
    await this.transaction(async (session) => {
      for (const spec of collections) await this.claimCollection(projection, spec, session);
      const created = await this.projections.updateOne({ _id: projection }, { $setOnInsert: { activeGeneration: 1, status: 'running', error: null } }, { upsert: true, session });
      if (created.upsertedCount === 1) {
        await this.generations.insertOne({ name: projection, generation: 1, checkpoint: null, retired: false, version }, { session });
      }
    });
    for (const generation of await this.liveGenerations(projection)) await this.createCollections(projection, generation);
    this.uniqueFields.clear();
  }

  async projectionState(projection: string): Promise<ProjectionState> {
    const [state] = await this.projectionStates([projection]);
    return state!;
  }

  async projectionStates(projections: readonly string[]): Promise<ProjectionState[]> {
    const names = [...new Set(projections)];
    const records = new Map((await this.projections.find({ _id: { $in: names } }).toArray()).map((record) => [record._id, record]));
    const active = names.flatMap((name) => {
      const record = records.get(name);
      return record ? [{ name, generation: record.activeGeneration }] : [];
    });
    const generations = active.length ? await this.generations.find({ $or: active }).toArray() : [];
    return projections.map((projection) => {
      const record = records.get(projection);
      if (!record) throw new Error(`Unknown projection ${projection}`);
      const generation = generations.find((g) => g.name === projection && g.generation === record.activeGeneration);
      return {
        projection,
        activeGeneration: record.activeGeneration,
        checkpoint: generation?.checkpoint ?? null,
        version: generation?.version ?? 1,
        status: record.status,
        error: record.error,
      };
    });
  }

  generationReader(projection: string, generation: number): DocumentReader {
    return documentReader(
      (collection) => this.documentsOf(collection, projection, generation),
      (collection) => this.uniqueFieldsOf(collection),
    );
  }

  async checkpointOf(projection: string, generation: number): Promise<number | null> {
    const record = await this.generations.findOne({ name: projection, generation });
    return record?.checkpoint ?? null;
  }

  async streamRevisionOf(projection: string, generation: number, streamId: string): Promise<number | null> {
    const record = await this.revisions.findOne({ name: projection, generation, streamId });
    return record?.revision ?? null;
  }

  /** A commit is answered once MongoDB acknowledged it with the client's write concern: nothing is left to sync. */
  async synced(): Promise<void> {}

  async commitProjection(commit: ProjectionCommit): Promise<CommitOutcome> {
    const { projection, generation } = commit;
    return this.transaction<CommitOutcome>(async (session) => {
      const record = await this.generations.findOne({ name: projection, generation }, { session });
      if (!record || record.retired) return 'retired';
      if (isStale(record.checkpoint ?? null, commit)) return 'stale';
      for (const [collection, writes] of groupByCollection(commit.writes)) {
        const documents = await this.documentsOf(collection, projection, generation, session);
        const unique = await this.uniqueFieldsOf(collection, session);
        if (unique.size > 0) for (const write of writes) if (write.kind === 'put') assertUniqueFieldsPresent(collection, write.doc, unique);
        await documents.bulkWrite(writes.map(toBulkOperation), { ordered: true, session });
      }
      await this.saveStreamRevisions(commit, session);
      if (commit.timers?.length)
        await this.timers.bulkWrite(
          commit.timers.map((timer) => ({ updateOne: newTimerUpsert(timer) })),
          { session },
        );
      // Always writing the generation record also makes a concurrent activation (which retires it) conflict.
      await this.generations.updateOne({ name: projection, generation }, { $set: { checkpoint: commit.checkpoint } }, { session });
      return 'committed';
    });
  }

  async createShadowGeneration(projection: string, version = 1): Promise<number> {
    const next = await this.transaction(async (session) => {
      const latest = await this.generations.findOne({ name: projection }, { sort: { generation: -1 }, session });
      if (!latest) throw new Error(`Unknown projection ${projection}`);
      const generation = latest.generation + 1;
      await this.generations.insertOne({ name: projection, generation, checkpoint: null, retired: false, version }, { session });
      return generation;
    });
    await this.createCollections(projection, next);
    return next;
  }

  async activateGeneration(projection: string, generation: number): Promise<void> {
    const retired = await this.transaction(async (session) => {
      const record = await this.projections.findOne({ _id: projection }, { session });
      if (!record) throw new Error(`Unknown projection ${projection}`);
      await this.projections.updateOne({ _id: projection }, { $set: { activeGeneration: generation, status: 'running', error: null } }, { session });
      const old = (await this.liveGenerations(projection, session)).filter((g) => g !== generation && g <= record.activeGeneration);
      await this.generations.updateMany({ name: projection, generation: { $in: old } }, { $set: { retired: true } }, { session });
      await this.revisions.deleteMany({ name: projection, generation: { $in: old } }, { session });
      return old;
    });
    // Collections cannot be dropped inside a transaction: drop them once the swap is committed.
    for (const old of retired) await this.dropCollections(projection, old);
  }

  async discardShadowGenerations(projection: string): Promise<number[]> {
    const shadows = await this.transaction(async (session) => {
      const record = await this.projections.findOne({ _id: projection }, { session });
      if (!record) throw new Error(`Unknown projection ${projection}`);
      const found = (await this.liveGenerations(projection, session)).filter((g) => g !== record.activeGeneration);
      await this.generations.updateMany({ name: projection, generation: { $in: found } }, { $set: { retired: true } }, { session });
      await this.revisions.deleteMany({ name: projection, generation: { $in: found } }, { session });
      return found;
    });
    for (const shadow of shadows) await this.dropCollections(projection, shadow);
    return shadows;
  }

  async setProjectionError(projection: string, error: string | null): Promise<void> {
    await this.projections.updateOne({ _id: projection }, { $set: { status: error === null ? 'running' : 'stalled', error } });
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    return this.activeReader().get<T>(collection, id);
  }

  async getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<(T | null)[]> {
    return this.activeReader().getMany<T>(collection, ids);
  }

  async find<T extends Doc>(collection: string, options?: FindOptions): Promise<T[]> {
    return this.activeReader().find<T>(collection, options);
  }

  async count(collection: string, filter?: Filter, range?: Range): Promise<number> {
    return this.activeReader().count(collection, filter, range);
  }

  async putOperational<T extends Doc>(collection: string, doc: T): Promise<void> {
    await this.operational.replaceOne({ _id: { collection, id: doc.id } }, { body: doc }, { upsert: true });
  }

  async getOperational<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const record = await this.operational.findOne({ _id: { collection, id } });
    return record ? (record.body as T) : null;
  }

  async listOperational<T extends Doc>(collection: string, limit: number): Promise<T[]> {
    const records = await this.operational.find({ '_id.collection': collection }).sort({ '_id.id': 1 }).hint(OPERATIONAL_LIST_INDEX).limit(limit).toArray();
    return records.map((record) => record.body as T);
  }

  async deleteOperational(collection: string, id: string): Promise<boolean> {
    return (await this.operational.deleteOne({ _id: { collection, id } })).deletedCount > 0;
  }

  async purgeExpiredOperational(collection: string, expiredAt: string, limit: number): Promise<number> {
    return deleteUpTo(this.operational, { '_id.collection': collection, 'body.expiresAt': { $lte: expiredAt } }, limit);
  }

  /**
   * One upsert that matches only an expired document (or none): it replaces the expired one, inserts when
   * there is none, and collides (duplicate key) with a live one, which is then read and answered. The
   * filter is not pure equality, so the server never retries the colliding insert into an update.
   */
  async claimOperational<T extends Doc>(collection: string, doc: T, now: string): Promise<T | null> {
    const _id = { collection, id: doc.id };
    try {
      await this.operational.updateOne({ _id, 'body.expiresAt': { $lte: now } }, { $set: { body: doc } }, { upsert: true });
      return null;
    } catch (error) {
      if (!isServerError(error, DUPLICATE_KEY)) throw error;
      const live = await this.operational.findOne({ _id });
      // Gone between the collision and the read (deleted, or purged): claim again.
      return live ? (live.body as T) : this.claimOperational(collection, doc, now);
    }
  }

  /**
   * Each step is one atomic single-document update; a lost race to start a window retries the count once.
   * Correctness leans on the duplicate-key error: the upsert's filter is not pure equality (it has a range on
   * body.expiresAt), so the server does not retry a colliding insert itself (it does only for equality
   * filters on the unique key) and two concurrent window starts cannot both insert: one gets 11000 and
   * counts in the window the other started. Covered by the OperationalStore contract (concurrent starts).
   */
  async useAllowance(collection: string, id: string, allowance: number, now: string, windowEndsAt: string): Promise<boolean> {
    const _id = { collection, id };
    const countInLiveWindow = async () =>
      (await this.operational.updateOne({ _id, 'body.expiresAt': { $gt: now }, 'body.used': { $lt: allowance } }, { $inc: { 'body.used': 1 } })).modifiedCount === 1;
    if (await countInLiveWindow()) return true;
    try {
      // No window, or an ended one: start a new one. A live window (full, or just started by a concurrent
      // call) does not match, so the upsert's insert collides with it.
      const window: AllowanceWindow = { id, used: 1, expiresAt: windowEndsAt };
      await this.operational.updateOne({ _id, 'body.expiresAt': { $lte: now } }, { $set: { body: window } }, { upsert: true });
      return true;
    } catch (error) {
      if (!isServerError(error, DUPLICATE_KEY)) throw error;
      return countInLiveWindow();
    }
  }

  /** One atomic single-document update: only a live window with a use in it is decremented. */
  async returnAllowance(collection: string, id: string, now: string): Promise<void> {
    await this.operational.updateOne({ _id: { collection, id }, 'body.expiresAt': { $gt: now }, 'body.used': { $gt: 0 } }, { $inc: { 'body.used': -1 } });
  }

  /**
   * Correctness leans on the duplicate-key error: the filter is not pure equality ($or with a range), so the
   * server never retries the colliding insert of a losing contender, and 11000 is the answer "held by
   * someone else". Covered by the LeaseStore contract (concurrent contenders on a missing and an expired lease).
   */
  async tryAcquireLease(name: string, owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    try {
      // Matches when the lease is ours or expired; when it is held by someone else the upsert's insert
      // collides on _id, and when the lease is missing the first upsert wins and the others collide.
      await this.leases.updateOne({ _id: name, $or: [{ owner }, { expiresAtMs: { $lte: nowMs } }] }, { $set: { owner, expiresAtMs: nowMs + ttlMs } }, { upsert: true });
      return true;
    } catch (error) {
      if (isServerError(error, DUPLICATE_KEY)) return false;
      throw error;
    }
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.leases.deleteOne({ _id: name, owner });
  }

  async scheduleTimer(timer: NewTimer): Promise<void> {
    try {
      const { filter, update, upsert } = newTimerUpsert(timer);
      await this.timers.updateOne(filter, update, { upsert });
    } catch (error) {
      // Two concurrent schedules of a new id: the loser's insert collides, and the timer exists as wanted. The
      // filter is pure equality on _id, so servers since 4.2 retry that insert themselves; older ones need this.
      if (!isServerError(error, DUPLICATE_KEY)) throw error;
    }
  }

  /** Claims one timer at a time, each with one atomic findOneAndUpdate, so a timer goes to exactly one claimer. */
  async claimDueTimers(now: string, owner: string, nowMs: number, leaseMs: number, limit: number): Promise<Timer[]> {
    const claimed: Timer[] = [];
    const max = limit < 0 ? Infinity : limit; // like SQLite's LIMIT: negative means no limit
    while (claimed.length < max) {
      const record = await this.timers.findOneAndUpdate(
        {
          status: 'scheduled',
          dueAt: { $lte: now },
          $or: [{ leaseUntilMs: null }, { leaseUntilMs: { $lte: nowMs } }],
          // A lease that is already expired (leaseMs <= 0) must not hand the same timer back in this call.
          _id: { $nin: claimed.map((t) => t.id) },
        },
        { $set: { leaseOwner: owner, leaseUntilMs: nowMs + leaseMs } },
        { sort: { dueAt: 1, _id: 1 } },
      );
      if (!record) break;
      claimed.push({ id: record._id, kind: record.kind, dueAt: record.dueAt, payload: record.payload, attempts: record.attempts });
    }
    return claimed;
  }

  async completeTimer(id: string, owner: string, doneAtMs: number): Promise<void> {
    await this.finishAttempt(id, owner, { status: 'done', doneAtMs });
  }

  async retryTimer(id: string, owner: string, dueAt: string, error: string): Promise<void> {
    await this.finishAttempt(id, owner, { dueAt, lastError: error });
  }

  async parkTimer(id: string, owner: string, error: string): Promise<void> {
    await this.finishAttempt(id, owner, { status: 'parked', lastError: error });
  }

  async timerStatus(id: string): Promise<{ status: TimerStatus; attempts: number; lastError: string | null } | null> {
    const record = await this.timers.findOne({ _id: id });
    return record ? { status: record.status, attempts: record.attempts, lastError: record.lastError } : null;
  }

  async nextTimerDueAt(): Promise<string | null> {
    const record = await this.timers.findOne({ status: 'scheduled' }, { sort: { dueAt: 1 }, projection: { dueAt: 1 } });
    return record?.dueAt ?? null;
  }

  async purgeDoneTimers(doneBeforeMs: number, limit: number): Promise<number> {
    return deleteUpTo(this.timers, { status: 'done', doneAtMs: { $lt: doneBeforeMs } }, limit);
  }

  async timerCounts(): Promise<TimerCount[]> {
    const groups = await this.timers
      .aggregate<{ _id: { kind: string; status: TimerStatus }; count: number }>([
        { $match: { status: { $in: ['scheduled', 'parked'] } } },
        { $group: { _id: { kind: '$kind', status: '$status' }, count: { $sum: 1 } } },
        { $sort: { '_id.kind': 1, '_id.status': 1 } },
      ])
      .toArray();
    return groups.map((group) => ({ kind: group._id.kind, status: group._id.status, count: group.count }));
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  /** No push here: waiters poll the checkpoints (a change stream on the generations would be the push). */
  watchCommits(): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Drops the whole database; for disposable databases (contract tests), not part of the port. */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
  }

  private async prepare(): Promise<void> {
    const bookkeeping = [this.projections, this.generations, this.collections, this.revisions, this.operational, this.leases, this.timers];
    for (const collection of bookkeeping) await this.ensureCollection(collection.collectionName);
    await this.generations.createIndex({ name: 1, generation: 1 }, { unique: true });
    await this.collections.createIndex({ projection: 1 });
    await this.revisions.createIndex({ name: 1, generation: 1, streamId: 1 }, { unique: true });
    await this.timers.createIndex({ status: 1, dueAt: 1 });
    await this.timers.createIndex({ status: 1, doneAtMs: 1 });
    // Expired sessions, magic links and allowance windows are purged by collection and expiry.
    await this.operational.createIndex({ '_id.collection': 1, 'body.expiresAt': 1 });
    // listOperational: equality on the collection, sorted by id. The _id index orders whole {collection, id}
    // documents and cannot serve a sort on '_id.id', so without this every list sorts in memory.
    await this.operational.createIndex(OPERATIONAL_LIST_INDEX);
  }

  /**
   * Collections are created outside transactions (explicit creation inside one needs read concern
   * "local"), so a transaction only ever writes to collections that exist.
   */
  private async ensureCollection(name: string): Promise<void> {
    try {
      await this.db.createCollection(name);
    } catch (error) {
      if (!isServerError(error, NAMESPACE_EXISTS)) throw error;
    }
  }

  private transaction<R>(work: (session: ClientSession) => Promise<R>): Promise<R> {
    return this.client.withSession((session) => session.withTransaction(work, TRANSACTION));
  }

  private async claimCollection(projection: string, spec: CollectionSpec, session: ClientSession): Promise<void> {
    const owner = await this.collections.findOne({ _id: spec.name }, { session });
    if (owner && owner.projection !== projection) {
      throw new Error(`Collection ${spec.name} already belongs to projection ${owner.projection}`);
    }
    await this.collections.updateOne({ _id: spec.name }, { $set: { projection, spec } }, { upsert: true, session });
  }

  private async saveStreamRevisions(commit: ProjectionCommit, session: ClientSession): Promise<void> {
    const operations = Object.entries(commit.streamRevisions).map(([streamId, revision]): AnyBulkWriteOperation<StreamRevisionRecord> => ({
      updateOne: {
        filter: { name: commit.projection, generation: commit.generation, streamId },
        update: { $set: { revision } },
        upsert: true,
      },
    }));
    if (operations.length > 0) await this.revisions.bulkWrite(operations, { ordered: true, session });
  }

  /** Ends the current attempt of a timer, only for the owner of its lease. */
  private async finishAttempt(id: string, owner: string, changes: Partial<Pick<TimerRecord, 'status' | 'dueAt' | 'lastError' | 'doneAtMs'>>): Promise<void> {
    await this.timers.updateOne({ _id: id, leaseOwner: owner }, { $set: { ...changes, leaseOwner: null, leaseUntilMs: null }, $inc: { attempts: 1 } });
  }

  private activeReader(): BatchDocumentReader {
    return documentReader(
      async (collection) => {
        const projection = await this.ownerOf(collection);
        const record = await this.projections.findOne({ _id: projection });
        if (!record) throw new Error(`Unknown projection ${projection}`);
        return this.physical(collection, record.activeGeneration);
      },
      (collection) => this.uniqueFieldsOf(collection),
    );
  }

  private async documentsOf(collection: string, projection: string, generation: number, session?: ClientSession): Promise<Collection<StoredDoc>> {
    const owner = await this.ownerOf(collection, session);
    if (owner !== projection) throw new Error(`Collection ${collection} belongs to ${owner}, not ${projection}`);
    return this.physical(collection, generation);
  }

  /**
   * Inside a transaction pass its session: a read without it runs outside the transaction's snapshot (and,
   * on a cache miss, could see a registration the transaction cannot).
   */
  private async ownerOf(collection: string, session?: ClientSession): Promise<string> {
    const cached = this.owners.get(collection);
    if (cached !== undefined) return cached;
    const record = await this.collections.findOne({ _id: collection }, { session });
    if (!record) throw new Error(`Unknown collection ${collection}`);
    this.owners.set(collection, record.projection);
    return record.projection;
  }

  /** Each collection's unique fields (CollectionSpec.unique), as registered; forgotten when a projection registers again. */
  private readonly uniqueFields = new Map<string, ReadonlySet<string>>();

  private async uniqueFieldsOf(collection: string, session?: ClientSession): Promise<ReadonlySet<string>> {
    const cached = this.uniqueFields.get(collection);
    if (cached !== undefined) return cached;
    const record = await this.collections.findOne({ _id: collection }, { session });
    const unique: ReadonlySet<string> = new Set(record?.spec.unique ?? []);
    this.uniqueFields.set(collection, unique);
    return unique;
  }

  private async collectionsOf(projection: string): Promise<CollectionSpec[]> {
    const records = await this.collections.find({ projection }).toArray();
    return records.map((record) => record.spec);
  }

  private async liveGenerations(projection: string, session?: ClientSession): Promise<number[]> {
    const records = await this.generations.find({ name: projection, retired: false }, { session }).toArray();
    return records.map((record) => record.generation);
  }

  private async createCollections(projection: string, generation: number): Promise<void> {
    for (const spec of await this.collectionsOf(projection)) {
      const name = physicalName(spec.name, generation);
      await this.ensureCollection(name);
      for (const fields of spec.indexes ?? []) {
        await this.db.collection(name).createIndex(fields.map((field): [string, 1] => [assertIdentifier(field), 1]));
      }
      // Descending: a collection made before the field was declared unique may hold a plain index on
      // { field: 1 }, and MongoDB refuses a second index with the same key pattern.
      for (const field of spec.unique ?? []) {
        await this.db.collection(name).createIndex({ [assertIdentifier(field)]: -1 }, { unique: true, name: `unique__${field}` });
        const missing = await this.physical(spec.name, generation).findOne({ [field]: null }, { projection: { _id: 1 } });
        if (missing) throw new Error(`Document ${missing._id} of ${name} has no ${field}, which is unique in that collection`);
      }
    }
  }

  private async dropCollections(projection: string, generation: number): Promise<void> {
    // Collection.drop resolves false (rather than failing) when the collection does not exist.
    for (const spec of await this.collectionsOf(projection)) await this.physical(spec.name, generation).drop();
  }

  private physical(collection: string, generation: number): Collection<StoredDoc> {
    return this.db.collection<StoredDoc>(physicalName(collection, generation));
  }
}

function physicalName(collection: string, generation: number): string {
  return `rm_${assertIdentifier(collection)}_g${generation}`;
}

/** The database named in the URL path (mongodb://host/db?opts), if any. */
export function databaseFromUrl(url: string): string | undefined {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/.exec(url)?.[1];
  return path ? decodeURIComponent(path) : undefined;
}

function isServerError(error: unknown, code: number): boolean {
  return error instanceof MongoServerError && error.code === code;
}

function documentReader(
  collectionOf: (collection: string) => Promise<Collection<StoredDoc>>,
  uniqueFieldsOf: (collection: string) => Promise<ReadonlySet<string>>,
): BatchDocumentReader {
  return {
    async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
      const stored = await (await collectionOf(collection)).findOne({ _id: id });
      return stored ? fromStored<T>(stored) : null;
    },
    async getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<(T | null)[]> {
      if (ids.length === 0) return [];
      const found = await (await collectionOf(collection)).find({ _id: { $in: [...ids] } }).toArray();
      const byId = new Map(found.map((stored) => [stored._id, stored]));
      return ids.map((id) => {
        const stored = byId.get(id);
        return stored ? fromStored<T>(stored) : null;
      });
    },
    async find<T extends Doc>(collection: string, options: FindOptions = {}): Promise<T[]> {
      if (options.limit === 0) return []; // SQLite's LIMIT 0; for MongoDB a limit of 0 means none
      const cursor = (await collectionOf(collection)).find(toQuery(options.filter, options.range), {
        sort: toSort(options.sort, await uniqueFieldsOf(collection)),
        skip: positive(options.skip),
        limit: positive(options.limit),
      });
      return (await cursor.toArray()).map((stored) => fromStored<T>(stored));
    },
    async count(collection: string, filter?: Filter, range?: Range): Promise<number> {
      return (await collectionOf(collection)).countDocuments(toQuery(filter, range));
    },
  };
}

function groupByCollection(writes: DocumentWrite[]): Map<string, DocumentWrite[]> {
  const groups = new Map<string, DocumentWrite[]>();
  for (const write of writes) {
    const group = groups.get(write.collection);
    if (group) group.push(write);
    else groups.set(write.collection, [write]);
  }
  return groups;
}

function toBulkOperation(write: DocumentWrite): AnyBulkWriteOperation<StoredDoc> {
  if (write.kind === 'delete') return { deleteOne: { filter: { _id: write.id } } };
  return { replaceOne: { filter: { _id: write.doc.id }, replacement: toStored(write.doc), upsert: true } };
}

/** The document's fields as they are (id included); `_id` comes from the filter on upsert. */
function toStored(doc: Doc): Omit<StoredDoc, '_id'> {
  const fields: Record<string, unknown> = { ...doc };
  delete fields._id;
  return fields;
}

function fromStored<T extends Doc>(stored: StoredDoc): T {
  const { _id, ...fields } = stored;
  return { ...fields, id: _id } as unknown as T;
}

/**
 * Deletes at most `limit` documents matching `filter` (deleteMany has no limit): their ids first, then
 * those of them that still match.
 */
async function deleteUpTo<T extends Document>(collection: Collection<T>, filter: MongoFilter<T>, limit: number): Promise<number> {
  const ids = (await collection.find(filter, { projection: { _id: 1 }, limit }).toArray()).map((found) => found._id);
  if (ids.length === 0) return 0;
  return (await collection.deleteMany({ $and: [filter, { _id: { $in: ids } }] } as MongoFilter<T>)).deletedCount;
}

/** Inserts a timer unless one with its id exists: scheduling is idempotent. */
function newTimerUpsert(timer: NewTimer) {
  return {
    filter: { _id: timer.id },
    update: {
      $setOnInsert: {
        kind: timer.kind,
        dueAt: timer.dueAt,
        payload: timer.payload,
        attempts: 0,
        status: 'scheduled' as const,
        leaseOwner: null,
        leaseUntilMs: null,
        lastError: null,
      },
    },
    upsert: true,
  };
}
