import { Inject, Injectable } from '@nestjs/common';
import { GroupCommit } from '../../platform/batching/group-commit';
import { CLOCK, Clock, isoString } from '../../platform/clock/clock';
import { canonicalJson } from '../../platform/domain/canonical-json';
import { deliveryDecider } from '../domain/webhook-delivery.decider';
import { DeliveryBody } from '../domain/webhooks.events';
import { DeliveryRecord, NewDelivery, WEBHOOK_DELIVERY_STORE, WebhookDeliveryStore } from './webhook-delivery-store.port';
import { stateOf, WebhookDeliveryWorker } from './webhook-delivery-worker';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** Creates deliveries (due at once) and restarts them (redelivery); the worker sends them. */
@Injectable()
export class WebhookDeliveries {
  /**
   * Deliveries created in one turn of the event loop are written in one transaction. Those due now
   * that this process's worker has room for are created claimed by it and handed over once written:
   * a delivery is sent without a claim query (a crash before it is sent leaves the claim to expire).
   */
  private readonly creates = new GroupCommit<NewDelivery, void>(async (deliveries) => {
    // Each claim holds its room in the worker until handed over or given up, so batches flushed one
    // after the other before any is handed over cannot together claim beyond the worker's bounds.
    // The claim is set on the item itself (create() made it, nothing else holds it): a copy per
    // delivery with the claim spread in was one more object alive through the burst (issue 31).
    for (const delivery of deliveries) if (delivery.nextAttemptAt !== null) delivery.claim = this.worker.claimForNew(delivery.endpointId) ?? undefined;
    let created = new Set<string>();
    try {
      created = new Set(await this.store.createDeliveries(deliveries));
    } finally {
      // Claims whose delivery was not created (it existed, or the write failed) give their room back.
      this.worker.unreserve(deliveries.filter((d) => d.claim && !created.has(d.id)).map((d) => d.endpointId));
    }
    const handedOver = deliveries.filter((d) => d.claim && created.has(d.id));
    await this.worker.handOver(handedOver.map(newRecord));
    // One poke per batch, and only if a delivery due now was not handed over (no room, or it existed):
    // the worker's loop claims those. A poke per delivery made it claim from an empty store after each.
    if (deliveries.some((d) => d.nextAttemptAt !== null && !(d.claim && created.has(d.id)))) this.worker.poke();
    return deliveries.map(() => undefined);
  });

  constructor(
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly store: WebhookDeliveryStore,
    private readonly worker: WebhookDeliveryWorker,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Idempotent on deliveryId: a reprocessed event never makes a second delivery. `dueNow: false` creates
   * it with no attempt due (the endpoint test sends it itself, at once).
   */
  create(deliveryId: string, endpointId: string, companyId: string, body: DeliveryBody, options: { dueNow: boolean } = { dueNow: true }): Promise<void> {
    // Not async: the group commit's promise is returned as it is (no second promise and turn per
    // delivery); a body canonicalJson refuses still comes back as a rejected promise, not a throw.
    let canonical: string;
    try {
      canonical = canonicalJson(body);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const createdAt = isoString(this.clock.now());
    return this.creates.add({
      id: deliveryId,
      endpointId,
      companyId,
      eventId: body.id,
      eventType: body.type,
      body: canonical,
      createdAt,
      nextAttemptAt: options.dueNow ? createdAt : null,
      claim: undefined,
    });
  }

  /** Sends again from a fresh retry series, starting now (the delivery decider's rule). Null: no such delivery. */
  async redeliver(deliveryId: string, requestedBy: string): Promise<DeliveryRecord | null> {
    for (;;) {
      const delivery = await this.store.get(deliveryId);
      if (!delivery) return null;
      const [requested] = deliveryDecider.decide(
        { type: 'RequestRedelivery', data: { requestedBy }, metadata: commandMetadata(this.clock, { actor: requestedBy }) },
        stateOf(delivery),
      );
      if (!requested || requested.type !== 'webhook.delivery.redelivery_requested') return delivery;
      // An attempt recorded in between moves lastAttempt: decide again on the fresh row.
      if (await this.store.restartSeries(deliveryId, delivery.lastAttempt, requested.data.attempt, requested.data.requestedAt, requestedBy)) {
        this.worker.poke();
        return this.store.get(deliveryId);
      }
    }
  }
}

function newRecord(delivery: NewDelivery): DeliveryRecord {
  // Field by field rather than a spread: it runs once per delivery on the hottest path.
  const { id, endpointId, companyId, eventId, eventType, body, createdAt, nextAttemptAt } = delivery;
  return { id, endpointId, companyId, eventId, eventType, body, status: 'pending', attempts: [], lastAttempt: 0, seriesStart: 1, nextAttemptAt, createdAt, updatedAt: createdAt };
}
