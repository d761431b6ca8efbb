import { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, isoString, REAL_CLOCK } from '../../platform/clock/clock';
import { WakeableLoop } from '../../platform/background/wakeable-loop';
import { DueWork, DueWorkers } from '../../platform/background.decorators';
import { GroupCommit } from '../../platform/batching/group-commit';
import { SecretBox } from '../../platform/crypto/secret-box';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { AppLogger } from '../../platform/logging/app-logger';
import { INSTANCE_ID, LOGGER } from '../../platform/platform.tokens';
import { companyWebhooksDecider, CompanyWebhooksState } from '../domain/company-webhooks.decider';
import { deliveryDecider, DeliveryState } from '../domain/webhook-delivery.decider';
import { PROBATION_RETRIES, RETRY_DELAYS_SECONDS } from '../domain/webhook-event-types';
import { signingKey, signWebhook, webhookRequestHeaders } from '../domain/webhook-signature';
import { companyWebhooksStreamId } from '../domain/webhooks.events';
import { DeliveryAttemptRecord, DeliveryRecord, RecordedAttempt, ReleasedDelivery, WEBHOOK_DELIVERY_STORE, WebhookDeliveryStore } from './webhook-delivery-store.port';
import { SECRET_BOX, WEBHOOK_POSTER } from './webhook.tokens';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export interface WebhookPoster {
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ kind: 'response'; status: number; latencyMs: number } | { kind: 'error'; error: string; latencyMs: number }>;
}

export interface AttemptOutcome {
  deliveryId: string;
  attempt: number;
  succeeded: boolean;
  responseStatus: number | null;
  error: string | null;
  skipped?: 'not_due' | 'endpoint_gone' | 'endpoint_disabled';
}

/** A claim is this long; a process that dies holding it loses it after this, and another sends again. */
export const DELIVERY_LEASE_MS = 30_000;
/** Deliveries claimed per store round trip. */
const CLAIM_BATCH = 256;
/** Requests in flight from one process, every endpoint together. */
const MAX_IN_FLIGHT = 256;
/** Requests in flight to one endpoint, so one slow receiver cannot take every lane (issue 15). */
const LANES_PER_ENDPOINT = 64;
/**
 * Deliveries this process holds claimed (sending or waiting for a lane), per endpoint and in all. The
 * rows are durable before they are claimed, so the bound is memory and fairness: beyond it an endpoint's
 * due deliveries wait in the store, unclaimed, for a later claim or another worker. 2,048 is what 64 lanes
 * send in well under half a lease at ordinary receiver latencies (3.2 s at 100 ms an answer); claims that
 * wait longer are given back. It was 1,024 (and 4,096 in all), but two create batches flushed in one turn
 * could together claim past it, so a 2,000-delivery burst was in fact created claimed whole; once the
 * bound held, half of that burst went through claim queries, ~29 us a row against nothing for a
 * delivery created claimed (webhooks bench profile, issue 31, round 3). MAX_CLAIMED keeps room for four
 * endpoints' full claims.
 */
export const CLAIMED_PER_ENDPOINT = 2_048;
const MAX_CLAIMED = 8_192;
const POLL_INTERVAL_MS = 250;
/**
 * Attempt outcomes recorded per durable commit, and the least time between two such commits. Each
 * commit is an fsync that blocks the thread (~4 ms); at full speed a commit per turn of the event loop
 * was one per ~33 outcomes and a third of the main thread (webhooks bench profile, issue 31). Lanes
 * free up on the answer, not on the record, so waiting for the next commit slows no request; an idle
 * worker still commits at once. At 25 ms a 2,000-delivery burst still took ~16 commits of ~1.3 ms
 * fsync and commit overhead each beyond the rows' own writes; at 100 ms the batch bound (512) set
 * the pace at full speed, ~4-5 commits per 2,000 (issue 31, round 2). With 1,024 the interval sets it
 * (~2-3 commits per 2,000): a row's page shared by two commits is written once, 10-15% less CPU per
 * recorded outcome in the store alone (issue 31, round 3). An outcome waits at most the interval to
 * be durable; a crash in between sends the attempt again (at least once, same delivery id).
 */
const RECORD_BATCH = 1_024;
const RECORD_INTERVAL_MS = 100;
/** Opened signing secrets kept in memory, by sealed value (a rotation seals a new one). */
const OPENED_SECRETS_KEPT = 1_000;

interface Claimed {
  delivery: DeliveryRecord;
  company: CompanyWebhooksState;
  claimedAtMs: number;
}

/**
 * Sends webhook deliveries: claims due ones from the delivery store in batches with a lease, loads each
 * company's endpoints and secret once per batch, signs and POSTs each (at most LANES_PER_ENDPOINT at
 * once per endpoint), and records the outcomes in group commits (the delivery decider says what comes
 * next: a retry at its time, success, or failure for good). At least once: a process killed between the
 * POST and the record leaves the claim to expire, and the same delivery id is sent again.
 */
@Injectable()
@DueWorkers()
export class WebhookDeliveryWorker implements DueWork {
  readonly name = 'webhook deliveries';
  private readonly lanes = new Map<string, number>();
  private readonly queues = new Map<string, Claimed[]>();
  private inFlight = 0;
  private queued = 0;
  /**
   * Claims given out by claimForNew whose deliveries are not handed over (or given up) yet, per endpoint
   * and in all. They count against the bounds like queued ones: two create batches flushed in one turn
   * of the event loop each saw an empty queue and together claimed more than CLAIMED_PER_ENDPOINT.
   */
  private readonly reservedForNew = new Map<string, number>();
  private reservedTotal = 0;
  /** Lanes whose attempt has not ended yet (answered or not, recorded or not), and stop()'s wait for none. */
  private lanesRunning = 0;
  private lanesEnded: { promise: Promise<void>; resolve: () => void } | null = null;
  /** Set by stop(): no lane starts any more; what waits for one is given back to the store. */
  private stopping = false;
  private readonly openedSecrets = new Map<string, KeyObject>();
  /**
   * False once a claim found nothing more due in the store (and skipped no endpoint): a freed lane then
   * wakes no claim. Anything that may leave a delivery due and unclaimed (a poke: a create not handed
   * over, a redelivery; a claim given back due) sets it again, and the poll claims whatever it says. At
   * the end of a burst every freed lane ran an empty claim, ~10% of the webhooks bench's round (issue 31).
   */
  private storeMayHaveDue = true;
  /** Counts the times storeMayHaveDue was set, so a claim that raced one does not clear it. */
  private dueMarks = 0;
  private readonly recorder = new GroupCommit<RecordedAttempt, boolean>((attempts) => this.record(attempts), RECORD_BATCH, RECORD_INTERVAL_MS);
  private readonly loop = new WakeableLoop(() => this.pump(), {
    pollIntervalMs: POLL_INTERVAL_MS,
    onPassFailed: (error) => this.logger.error({ err: error }, 'webhook delivery worker pass failed; retrying'),
  });

  constructor(
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly store: WebhookDeliveryStore,
    private readonly aggregates: AggregateRepository,
    @Inject(WEBHOOK_POSTER) private readonly http: WebhookPoster,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(REAL_CLOCK) private readonly realClock: Clock,
    @Inject(INSTANCE_ID) private readonly owner: string,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  start(): void {
    this.stopping = false;
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await this.allLanesEnded();
    const unsent = [...this.queues.values()].flat();
    this.queues.clear();
    this.queued = 0;
    await this.release(unsent.map(({ delivery }) => ({ deliveryId: delivery.id, keepDue: true })));
  }

  /** The delivery store is shared with the webhook dispatcher: closed after it stopped (PlatformRuntime.stop). */
  async close(): Promise<void> {
    await this.store.close();
  }

  /** Wakes the loop: a delivery may be due now and unclaimed (created and not handed over, redelivered). */
  poke(): void {
    this.mayHaveDue();
    this.loop.poke();
  }

  private mayHaveDue(): void {
    this.storeMayHaveDue = true;
    this.dueMarks++;
  }

  async runDue(): Promise<number> {
    let ran = 0;
    for (;;) {
      const claimed = await this.claimDue(CLAIM_BATCH, []);
      if (claimed.length === 0) return ran;
      await Promise.all(claimed.map((c) => this.send(c)));
      ran += claimed.length;
    }
  }

  async nextDueAt(): Promise<string | null> {
    return this.store.nextDueAt();
  }

  /**
   * A claim for a delivery about to be created, if this process's loop runs and has room for it: the
   * delivery is then created claimed and handed over at once (no claim query). Null: create it unclaimed.
   * The claim holds its room until handOver takes the delivery or unreserve gives it up.
   */
  claimForNew(endpointId: string): { owner: string; untilMs: number } | null {
    if (!this.loop.running) return null;
    const forEndpoint = this.reservedForNew.get(endpointId) ?? 0;
    const room = MAX_CLAIMED - this.inFlight - this.queued - this.reservedTotal;
    const endpointRoom = CLAIMED_PER_ENDPOINT - (this.queues.get(endpointId)?.length ?? 0) - (this.lanes.get(endpointId) ?? 0) - forEndpoint;
    if (room <= 0 || endpointRoom <= 0) return null;
    this.reservedForNew.set(endpointId, forEndpoint + 1);
    this.reservedTotal++;
    return { owner: this.owner, untilMs: this.realClock.now().getTime() + DELIVERY_LEASE_MS };
  }

  /** Gives up claims of claimForNew whose deliveries will not be handed over (not created, or the write failed). */
  unreserve(endpointIds: readonly string[]): void {
    for (const endpointId of endpointIds) {
      const left = (this.reservedForNew.get(endpointId) ?? 0) - 1;
      if (left > 0) this.reservedForNew.set(endpointId, left);
      else this.reservedForNew.delete(endpointId);
      this.reservedTotal--;
    }
  }

  /** Takes deliveries created with one of its claims (claimForNew) and sends them like claimed ones. */
  async handOver(deliveries: DeliveryRecord[]): Promise<void> {
    if (deliveries.length === 0) return;
    const claimedAtMs = this.realClock.now().getTime();
    let companies: CompanyWebhooksState[];
    try {
      companies = await this.companies(deliveries);
    } finally {
      // Queued from here on (or, if the companies could not be loaded, left to their lease): no longer reserved.
      this.unreserve(deliveries.map((d) => d.endpointId));
    }
    deliveries.forEach((delivery, i) => this.enqueue({ delivery, company: companies[i]!, claimedAtMs }));
    this.dispatch();
  }

  /** Sends one delivery now whatever its due time (a test delivery); null if another worker holds it or it is not pending. */
  async sendNow(deliveryId: string): Promise<AttemptOutcome | null> {
    const delivery = await this.store.claim(deliveryId, this.owner, this.realClock.now().getTime(), DELIVERY_LEASE_MS);
    if (!delivery) return null;
    const [company] = await this.companies([delivery]);
    return this.send({ delivery, company: company!, claimedAtMs: this.realClock.now().getTime() });
  }

  /**
   * Starts what has a lane, and claims more once the claimed deliveries waiting for a lane run low (so
   * claims come in batches, not one per freed lane). Endpoints whose lanes and queue are full are left
   * out of the claim: their due deliveries wait in the store, unclaimed, while others are sent.
   */
  private async pump(): Promise<void> {
    await this.dropStaleClaims();
    this.dispatch();
    const full = [...this.queues.entries()]
      .filter(([endpointId, queue]) => queue.length + (this.lanes.get(endpointId) ?? 0) + (this.reservedForNew.get(endpointId) ?? 0) >= CLAIMED_PER_ENDPOINT)
      .map(([id]) => id);
    const fullSet = new Set(full);
    const waiting = [...this.queues.entries()].reduce((sum, [endpointId, queue]) => sum + (fullSet.has(endpointId) ? 0 : queue.length), 0);
    if (waiting >= CLAIM_BATCH / 2) return;
    const room = Math.min(CLAIM_BATCH, MAX_CLAIMED - this.inFlight - this.queued - this.reservedTotal);
    if (room <= 0) return;
    const marks = this.dueMarks;
    const claimed = await this.claimDue(room, full);
    if (claimed.length < room && full.length === 0 && marks === this.dueMarks) this.storeMayHaveDue = false;
    for (const item of claimed) this.enqueue(item);
    this.dispatch();
    // A full claim means more may be due: go round again at once.
    if (claimed.length === room) this.poke();
  }

  private async claimDue(limit: number, skipEndpoints: string[]): Promise<Claimed[]> {
    const nowMs = this.realClock.now().getTime();
    const deliveries = await this.store.claimDue(this.clock.now().toISOString(), this.owner, nowMs, DELIVERY_LEASE_MS, limit, skipEndpoints);
    if (deliveries.length === 0) return [];
    const companies = await this.companies(deliveries);
    return deliveries.map((delivery, i) => ({ delivery, company: companies[i]!, claimedAtMs: nowMs }));
  }

  /** Each delivery's company webhooks (endpoints and sealed secret), loaded once per company. */
  private async companies(deliveries: DeliveryRecord[]): Promise<CompanyWebhooksState[]> {
    const loads = new Map<string, Promise<CompanyWebhooksState>>();
    for (const { companyId } of deliveries) {
      if (!loads.has(companyId))
        loads.set(
          companyId,
          this.aggregates.load(companyWebhooksStreamId(companyId), companyWebhooksDecider).then(({ state }) => state),
        );
    }
    return Promise.all(deliveries.map(({ companyId }) => loads.get(companyId)!));
  }

  private enqueue(item: Claimed): void {
    const queue = this.queues.get(item.delivery.endpointId) ?? [];
    queue.push(item);
    this.queues.set(item.delivery.endpointId, queue);
    this.queued++;
  }

  private dispatch(): void {
    if (this.stopping) return;
    for (const [endpointId, queue] of this.queues) {
      while (queue.length > 0 && this.inFlight < MAX_IN_FLIGHT && (this.lanes.get(endpointId) ?? 0) < LANES_PER_ENDPOINT) {
        const item = queue.shift()!;
        this.queued--;
        this.inFlight++;
        this.lanes.set(endpointId, (this.lanes.get(endpointId) ?? 0) + 1);
        this.lanesRunning++;
        void this.lane(item, endpointId);
      }
      if (queue.length === 0) this.queues.delete(endpointId);
    }
  }

  /**
   * One delivery on a lane of its endpoint. The lane is a request in flight: it frees up when the answer
   * is in (or the attempt ended without one), not when the outcome is written, which waits for the next
   * group commit. One async method rather than send().catch().finally() with a closure: two promises and
   * two closures fewer per delivery (issue 31, round 4).
   */
  private async lane(item: Claimed, endpointId: string): Promise<void> {
    const lane = { endpointId, free: false };
    try {
      await this.send(item, () => this.freeLane(lane));
    } catch (error) {
      this.logger.error({ err: error, deliveryId: item.delivery.id }, 'webhook attempt not completed; the delivery is sent again (claim given back, or expiring)');
    } finally {
      this.freeLane(lane);
      if (--this.lanesRunning === 0 && this.lanesEnded) {
        this.lanesEnded.resolve();
        this.lanesEnded = null;
      }
    }
  }

  /** Settles once no lane runs (shared: stop() may be called more than once). */
  private allLanesEnded(): Promise<void> {
    if (this.lanesRunning === 0) return Promise.resolve();
    if (!this.lanesEnded) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => (resolve = settle));
      this.lanesEnded = { promise, resolve };
    }
    return this.lanesEnded.promise;
  }

  private freeLane(lane: { endpointId: string; free: boolean }): void {
    if (lane.free) return;
    lane.free = true;
    this.inFlight--;
    this.lanes.set(lane.endpointId, this.lanes.get(lane.endpointId)! - 1);
    this.dispatch();
    // The loop claims more once few claimed deliveries wait (and the store may have more).
    if (this.queued < CLAIM_BATCH / 2 && this.storeMayHaveDue) this.loop.poke();
  }

  /** Claims that waited for a lane until half their lease was gone go back to the store unsent. */
  private async dropStaleClaims(): Promise<void> {
    const staleBefore = this.realClock.now().getTime() - DELIVERY_LEASE_MS / 2;
    const stale: Claimed[] = [];
    for (const [endpointId, queue] of this.queues) {
      const fresh = queue.filter((item) => item.claimedAtMs > staleBefore);
      stale.push(...queue.filter((item) => item.claimedAtMs <= staleBefore));
      if (fresh.length === 0) this.queues.delete(endpointId);
      else this.queues.set(endpointId, fresh);
    }
    this.queued -= stale.length;
    await this.release(stale.map(({ delivery }) => ({ deliveryId: delivery.id, keepDue: true })));
  }

  /**
   * One attempt: signs the canonical body with the company's current secret, POSTs it, and records the
   * outcome. A delivery whose endpoint is gone or disabled is skipped, not postponed (docs/webhooks.md).
   */
  private async send({ delivery, company }: Claimed, answered: () => void = () => undefined): Promise<AttemptOutcome> {
    const attempt = delivery.lastAttempt + 1;
    const endpoint = company.endpoints.get(delivery.endpointId);
    if (!endpoint || !endpoint.enabled) {
      await this.release([{ deliveryId: delivery.id, keepDue: false }]);
      return { deliveryId: delivery.id, attempt, succeeded: false, responseStatus: null, error: null, skipped: endpoint ? 'endpoint_disabled' : 'endpoint_gone' };
    }
    if (!company.sealedSecret) throw new Error(`company ${delivery.companyId} has endpoints but no signing secret`);

    const attemptedAt = isoString(this.clock.now());
    // Receivers check the timestamp against their own clock: it is real time even in the sandbox, whose
    // time shows in the body's createdAt and in the recorded attempt (docs/webhooks.md#headers).
    const signedAt = String(Math.floor(this.realClock.now().getTime() / 1000));
    const signature = signWebhook(this.signingKeyOf(company.sealedSecret), Number(signedAt), delivery.body);
    const headers = webhookRequestHeaders(delivery.eventType, delivery.id, signedAt, signature) as Record<string, string>;
    const result = await this.http.post(endpoint.url, headers, delivery.body);
    answered();
    const succeeded = result.kind === 'response' && result.status >= 200 && result.status < 300;
    const responseStatus = result.kind === 'response' ? result.status : null;
    const error = result.kind === 'error' ? result.error : succeeded ? null : `HTTP ${responseStatus}`;

    const state = stateOf(delivery);
    const retriesAllowed = endpoint.onProbation ? PROBATION_RETRIES : RETRY_DELAYS_SECONDS.length;
    const latencyMs = Math.round(result.latencyMs);
    const data = { attempt, succeeded, responseStatus, latencyMs, error, attemptedAt, signedAt, signature, retriesAllowed };
    const [attempted] = deliveryDecider.decide({ type: 'RecordAttempt', data }, state);
    if (!attempted) throw new Error(`delivery ${delivery.id} was claimed at attempt ${attempt} but does not take it`);
    const next = deliveryDecider.evolve(state, attempted);
    if (next.status === 'none') throw new Error(`delivery ${delivery.id} has no state after its attempt`);
    // Field by field (not a rest of `data` without retriesAllowed): once per attempt, on the hot path.
    const recorded: DeliveryAttemptRecord = { attempt, succeeded, responseStatus, latencyMs, error, attemptedAt, signedAt, signature };
    let stored: boolean;
    try {
      stored = await this.recorder.add({ deliveryId: delivery.id, attempt: recorded, status: next.status, nextAttemptAt: next.nextAttemptAt });
    } catch (error) {
      // Not recorded: give the claim back so the same attempt is sent again now (if this fails too, the claim expires).
      await this.release([{ deliveryId: delivery.id, keepDue: true }]);
      throw error;
    }
    if (!stored) this.logger.warn({ deliveryId: delivery.id, attempt }, 'webhook attempt not recorded: the claim was lost (another worker took the delivery over)');
    if (succeeded && endpoint.onProbation) await this.graduate(delivery);
    if (!succeeded) this.logger.info({ deliveryId: delivery.id, attempt, responseStatus, error, nextAttemptAt: next.nextAttemptAt }, 'webhook attempt failed');
    return { deliveryId: delivery.id, attempt, succeeded, responseStatus, error };
  }

  private async record(attempts: RecordedAttempt[]): Promise<boolean[]> {
    const recorded = new Set(await this.store.recordAttempts(this.owner, attempts, this.clock.now().toISOString()));
    return attempts.map((a) => recorded.has(a.deliveryId));
  }

  private async release(released: ReleasedDelivery[]): Promise<void> {
    if (released.length === 0) return;
    await this.store.release(this.owner, released, this.clock.now().toISOString());
    if (released.some((r) => r.keepDue)) this.mayHaveDue();
  }

  /**
   * The first 2xx ends probation (idempotent: a graduated endpoint stays so). If the append fails, the
   * endpoint stays on probation until its next 2xx graduates it; the attempt itself is recorded.
   */
  private async graduate(delivery: DeliveryRecord): Promise<void> {
    const context = { actor: 'system:webhook-worker', correlationId: delivery.eventId, causationId: null };
    try {
      await this.aggregates.handle(
        companyWebhooksStreamId(delivery.companyId),
        companyWebhooksDecider,
        { type: 'GraduateEndpoint', data: { companyId: delivery.companyId, endpointId: delivery.endpointId }, metadata: commandMetadata(this.clock, context) },
        context,
      );
    } catch (error) {
      this.logger.error({ err: error, endpointId: delivery.endpointId, deliveryId: delivery.id }, 'ending probation failed; the endpoint graduates on its next 2xx');
    }
  }

  /** The opened secret as a key object: HMAC keyed by a string converted and prepared the key on every signature. */
  private signingKeyOf(sealed: string): KeyObject {
    let key = this.openedSecrets.get(sealed);
    if (key === undefined) {
      if (this.openedSecrets.size >= OPENED_SECRETS_KEPT) this.openedSecrets.clear();
      key = signingKey(this.secrets.open(sealed));
      this.openedSecrets.set(sealed, key);
    }
    return key;
  }
}

/** The delivery decider's state of a stored delivery. */
export function stateOf(delivery: DeliveryRecord): DeliveryState {
  const { id: deliveryId, endpointId, companyId, status, lastAttempt, seriesStart, nextAttemptAt } = delivery;
  return { status, deliveryId, endpointId, companyId, lastAttempt, seriesStart, nextAttemptAt };
}
