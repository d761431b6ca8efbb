/**
 * Deliveries and their attempts as operational rows (not event streams): the delivery worker claims due
 * ones in batches with a lease, and records each attempt's outcome in one conditional write. The rows are
 * also what the delivery log reads, so there is no projection between them and the API.
 * Contract: test/contract/webhook-delivery-store.contract.ts.
 */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryAttemptRecord {
  attempt: number;
  attemptedAt: string;
  succeeded: boolean;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  /** The X-Paysplit-Timestamp (unix seconds) and X-Paysplit-Signature the attempt sent. */
  signedAt: string | null;
  signature: string | null;
}

export interface DeliveryRecord {
  id: string;
  endpointId: string;
  companyId: string;
  eventId: string;
  eventType: string;
  /** The canonical JSON every attempt sends, byte for byte. */
  body: string;
  status: DeliveryStatus;
  /** Every attempt, oldest first. */
  attempts: DeliveryAttemptRecord[];
  /** Number of the last recorded attempt (0: none yet). */
  lastAttempt: number;
  /** First attempt number of the current retry series (1, or where a redelivery started one). */
  seriesStart: number;
  /** When the next attempt is due; null when none is (finished, or skipped while its endpoint was off). */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type NewDelivery = Pick<DeliveryRecord, 'id' | 'endpointId' | 'companyId' | 'eventId' | 'eventType' | 'body' | 'createdAt' | 'nextAttemptAt'> & {
  /** Created already claimed (the creating process sends it at once, without a claim query): holder and real-time expiry. */
  claim?: { owner: string; untilMs: number };
};

/** One attempt's outcome and the delivery's state after it (decided by the delivery decider). */
export interface RecordedAttempt {
  deliveryId: string;
  attempt: DeliveryAttemptRecord;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
}

/** A claim given back unsent: due again at once (`keepDue`), or not due any more (skipped). */
export interface ReleasedDelivery {
  deliveryId: string;
  keepDue: boolean;
}

export interface DeliveryFilter {
  endpointId: string;
  status?: DeliveryStatus;
  eventType?: string;
  /** Inclusive bounds on createdAt (ISO timestamps). */
  from?: string;
  to?: string;
}

export interface DeliveryQueueCounts {
  /** Pending deliveries with an attempt due now or scheduled. */
  queued: number;
  /** Deliveries that used up their retries. */
  failed: number;
}

export interface WebhookDeliveryStore {
  /** Idempotent on id: a delivery that exists is left as it is (and not claimed). Returns the ids created now. */
  createDeliveries(deliveries: NewDelivery[]): Promise<string[]>;
  /**
   * Claims up to `limit` pending deliveries due at `now` whose lease is free or expired (at real
   * `nowMs`), earliest due first, leaving out the endpoints in `skipEndpoints` (their lanes are full).
   */
  claimDue(now: string, owner: string, nowMs: number, leaseMs: number, limit: number, skipEndpoints: readonly string[]): Promise<DeliveryRecord[]>;
  /** Claims one pending delivery whatever its due time, if its lease is free (a test delivery sent at once). */
  claim(deliveryId: string, owner: string, nowMs: number, leaseMs: number): Promise<DeliveryRecord | null>;
  /**
   * Records attempts in one write and frees their claims. Each is recorded only while `owner` holds
   * the delivery and it is the next attempt; returns the ids that were recorded.
   */
  recordAttempts(owner: string, attempts: RecordedAttempt[], updatedAt: string): Promise<string[]>;
  /** Frees claims without an attempt. */
  release(owner: string, released: ReleasedDelivery[], updatedAt: string): Promise<void>;
  /**
   * Starts a new retry series at `seriesStart`, due at `dueAt`, unless an attempt was recorded since
   * the caller read `lastAttempt`; true when it did.
   */
  restartSeries(deliveryId: string, lastAttempt: number, seriesStart: number, dueAt: string, requestedBy: string): Promise<boolean>;
  get(deliveryId: string): Promise<DeliveryRecord | null>;
  /** Newest first (createdAt, then id, descending). */
  list(filter: DeliveryFilter, skip: number, limit: number): Promise<DeliveryRecord[]>;
  count(filter: DeliveryFilter): Promise<number>;
  /** Deletes an endpoint's deliveries (its history goes with it); returns how many. */
  deleteForEndpoint(endpointId: string): Promise<number>;
  /** Earliest due time of a pending delivery, or null. */
  nextDueAt(): Promise<string | null>;
  queueCounts(): Promise<DeliveryQueueCounts>;
  /**
   * The log position through which the dispatcher's deliveries are all stored (its mark, stored in this
   * store so it is lost together with them): 0 for a store that was created empty, null for one written
   * before marks existed (issue 31).
   */
  dispatchedThrough(): Promise<number | null>;
  /** Records that every delivery of the events up to `position` is stored. */
  markDispatched(position: number): Promise<void>;
  close(): Promise<void>;
}

export const WEBHOOK_DELIVERY_STORE = Symbol('WEBHOOK_DELIVERY_STORE');
