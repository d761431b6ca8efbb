import { Collection, Filter, MongoClient, MongoClientOptions } from 'mongodb';
import { databaseFromUrl } from '../../platform/read-store/mongo/mongo-read-store';
import {
  DeliveryFilter,
  DeliveryQueueCounts,
  DeliveryRecord,
  NewDelivery,
  RecordedAttempt,
  ReleasedDelivery,
  WebhookDeliveryStore,
} from '../application/webhook-delivery-store.port';

const DISPATCHER_MARK = 'dispatcher';

type DeliveryDocument = Omit<DeliveryRecord, 'id'> & { _id: string; leaseOwner: string | null; leaseUntilMs: number | null; redeliveryRequestedBy?: string };

/** Webhook deliveries in one MongoDB collection, mirroring SqliteWebhookDeliveryStore document for row. */
export class MongoWebhookDeliveryStore implements WebhookDeliveryStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly deliveries: Collection<DeliveryDocument>,
    private readonly marks: Collection<{ _id: string; position: number }>,
  ) {}

  /** The database defaults to the URL's path, else 'paysplit' (the read store's). */
  static async connect(url: string, dbName?: string, options: MongoClientOptions = {}): Promise<MongoWebhookDeliveryStore> {
    const client = await MongoClient.connect(url, { ...options, ignoreUndefined: true });
    try {
      const deliveries = client.db(dbName ?? databaseFromUrl(url) ?? 'paysplit').collection<DeliveryDocument>('webhook_delivery_queue');
      await deliveries.createIndexes([
        { key: { status: 1, nextAttemptAt: 1, _id: 1 } },
        { key: { endpointId: 1, createdAt: -1, _id: -1 } },
        { key: { endpointId: 1, status: 1, createdAt: -1, _id: -1 } },
      ]);
      const db = client.db(dbName ?? databaseFromUrl(url) ?? 'paysplit');
      return new MongoWebhookDeliveryStore(client, deliveries, db.collection('webhook_dispatch_marks'));
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async createDeliveries(deliveries: NewDelivery[]): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const result = await this.deliveries.bulkWrite(
      deliveries.map(({ id, claim, ...delivery }) => ({
        updateOne: {
          filter: { _id: id },
          update: {
            $setOnInsert: {
              ...delivery,
              status: 'pending',
              attempts: [],
              lastAttempt: 0,
              seriesStart: 1,
              updatedAt: delivery.createdAt,
              leaseOwner: claim?.owner ?? null,
              leaseUntilMs: claim?.untilMs ?? null,
            },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    // upsertedIds maps each operation's index to the _id it inserted; existing deliveries have no entry.
    return Object.values(result.upsertedIds).map(String);
  }

  async claimDue(now: string, owner: string, nowMs: number, leaseMs: number, limit: number, skipEndpoints: readonly string[]): Promise<DeliveryRecord[]> {
    const claimed: DeliveryRecord[] = [];
    while (claimed.length < limit) {
      const document = await this.deliveries.findOneAndUpdate(
        {
          status: 'pending',
          nextAttemptAt: { $ne: null, $lte: now },
          $or: [{ leaseUntilMs: null }, { leaseUntilMs: { $lte: nowMs } }],
          endpointId: { $nin: [...skipEndpoints] },
          // An already expired lease (leaseMs <= 0) must not hand the same delivery back in this call.
          _id: { $nin: claimed.map((d) => d.id) },
        },
        { $set: { leaseOwner: owner, leaseUntilMs: nowMs + leaseMs } },
        { sort: { nextAttemptAt: 1, _id: 1 } },
      );
      if (!document) break;
      claimed.push(toRecord(document));
    }
    return claimed;
  }

  async claim(deliveryId: string, owner: string, nowMs: number, leaseMs: number): Promise<DeliveryRecord | null> {
    const document = await this.deliveries.findOneAndUpdate(
      { _id: deliveryId, status: 'pending', $or: [{ leaseUntilMs: null }, { leaseUntilMs: { $lte: nowMs } }] },
      { $set: { leaseOwner: owner, leaseUntilMs: nowMs + leaseMs } },
    );
    return document ? toRecord(document) : null;
  }

  async recordAttempts(owner: string, attempts: RecordedAttempt[], updatedAt: string): Promise<string[]> {
    const recorded = await Promise.all(
      attempts.map(async ({ deliveryId, attempt, status, nextAttemptAt }) => {
        const result = await this.deliveries.updateOne(
          { _id: deliveryId, lastAttempt: attempt.attempt - 1, leaseOwner: owner },
          { $set: { status, lastAttempt: attempt.attempt, nextAttemptAt, updatedAt, leaseOwner: null, leaseUntilMs: null }, $push: { attempts: attempt } },
        );
        return result.modifiedCount === 1 ? deliveryId : null;
      }),
    );
    return recorded.filter((id): id is string => id !== null);
  }

  async release(owner: string, released: ReleasedDelivery[], updatedAt: string): Promise<void> {
    await Promise.all(
      released.map(({ deliveryId, keepDue }) =>
        this.deliveries.updateOne(
          { _id: deliveryId, leaseOwner: owner },
          { $set: { leaseOwner: null, leaseUntilMs: null, updatedAt, ...(keepDue ? {} : { nextAttemptAt: null }) } },
        ),
      ),
    );
  }

  async restartSeries(deliveryId: string, lastAttempt: number, seriesStart: number, dueAt: string, requestedBy: string): Promise<boolean> {
    const result = await this.deliveries.updateOne(
      { _id: deliveryId, lastAttempt },
      { $set: { status: 'pending', seriesStart, nextAttemptAt: dueAt, updatedAt: dueAt, redeliveryRequestedBy: requestedBy } },
    );
    return result.matchedCount === 1;
  }

  async get(deliveryId: string): Promise<DeliveryRecord | null> {
    const document = await this.deliveries.findOne({ _id: deliveryId });
    return document ? toRecord(document) : null;
  }

  async list(filter: DeliveryFilter, skip: number, limit: number): Promise<DeliveryRecord[]> {
    const documents = await this.deliveries.find(queryOf(filter)).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray();
    return documents.map(toRecord);
  }

  async count(filter: DeliveryFilter): Promise<number> {
    return this.deliveries.countDocuments(queryOf(filter));
  }

  async deleteForEndpoint(endpointId: string): Promise<number> {
    return (await this.deliveries.deleteMany({ endpointId })).deletedCount;
  }

  async nextDueAt(): Promise<string | null> {
    const next = await this.deliveries
      .find({ status: 'pending', nextAttemptAt: { $ne: null } })
      .sort({ nextAttemptAt: 1 })
      .limit(1)
      .toArray();
    return next[0]?.nextAttemptAt ?? null;
  }

  async queueCounts(): Promise<DeliveryQueueCounts> {
    const [queued, failed] = await Promise.all([
      this.deliveries.countDocuments({ status: 'pending', nextAttemptAt: { $ne: null } }),
      this.deliveries.countDocuments({ status: 'failed' }),
    ]);
    return { queued, failed };
  }

  /** No mark yet reads as null (a database from before marks): the dispatcher then trusts its checkpoint. */
  async dispatchedThrough(): Promise<number | null> {
    return (await this.marks.findOne({ _id: DISPATCHER_MARK }))?.position ?? null;
  }

  async markDispatched(position: number): Promise<void> {
    await this.marks.updateOne({ _id: DISPATCHER_MARK }, { $max: { position } }, { upsert: true });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Drops the collection (contract tests use a disposable database). */
  async drop(): Promise<void> {
    await this.deliveries.drop();
    await this.marks.drop();
  }
}

function queryOf(filter: DeliveryFilter): Filter<DeliveryDocument> {
  const query: Filter<DeliveryDocument> = { endpointId: filter.endpointId };
  if (filter.status) query.status = filter.status;
  if (filter.eventType) query.eventType = filter.eventType;
  if (filter.from || filter.to) query.createdAt = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lte: filter.to } : {}) };
  return query;
}

function toRecord(document: DeliveryDocument): DeliveryRecord {
  return {
    id: document._id,
    endpointId: document.endpointId,
    companyId: document.companyId,
    eventId: document.eventId,
    eventType: document.eventType,
    body: document.body,
    status: document.status,
    attempts: document.attempts,
    lastAttempt: document.lastAttempt,
    seriesStart: document.seriesStart,
    nextAttemptAt: document.nextAttemptAt,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
