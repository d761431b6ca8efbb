import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WebhookEndpointDisabledError } from '../domain/webhooks.errors';
import { WebhookEventDoc } from '../projections/webhook-events.projection';
import { WEBHOOK_DELIVERY_STORE, WebhookDeliveryStore } from './webhook-delivery-store.port';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookDeliveriesQuery } from './webhook-deliveries.query';
import { WebhookEndpointQueries } from './webhook-endpoint-queries';
import { WebhookEventsQuery } from './webhook-events.query';
import { deliveryIdFor } from './webhook-event-mapping';

/** Deliveries one call sends at most (failed ones first, then missed events); the answer says how many are left, so the caller can call again. */
export const MAX_RECOVERED_PER_CALL = 500;
/** Events read at a time while looking for the missed ones. */
const EVENT_SCAN_BATCH = 500;

export interface RecoverResult {
  recovered: number;
  /** Deliveries in the window left for another call (beyond MAX_RECOVERED_PER_CALL); on a dry run, all of them. */
  remaining: number;
  /** Failed deliveries to the endpoint created in the window. */
  failed: number;
  /** Events of the window, of a type the endpoint subscribes to now, that have no delivery to it (null unless replayMissed). */
  missed: number | null;
  dryRun: boolean;
}

export interface RecoverOptions {
  /** ISO timestamp, normalised: the window's inclusive end (none: up to now). */
  until?: string;
  /** Also send the company's events of the window that never reached this endpoint (it was disabled, not subscribed or not there yet). */
  replayMissed?: boolean;
  /** Count, send nothing (allowed on a disabled endpoint). */
  dryRun?: boolean;
}

/**
 * After an outage of the receiver: sends every failed delivery of an endpoint created in [since, until]
 * again, oldest first, each with a fresh retry schedule (the same as redelivering each one); with
 * replayMissed, then the events of the window that reached no delivery to it, as the delivery the
 * dispatcher would have made (same id: sending one twice is impossible).
 */
export class RecoverWebhookDeliveriesMessage extends Command<RecoverResult> {
  constructor(
    readonly companyId: string,
    readonly endpointId: string,
    /** ISO timestamp, normalised. */
    readonly since: string,
    readonly requestedBy: string,
    readonly options: RecoverOptions = {},
  ) {
    super();
  }
}

@CommandHandler(RecoverWebhookDeliveriesMessage)
export class RecoverWebhookDeliveriesHandler implements ICommandHandler<RecoverWebhookDeliveriesMessage> {
  constructor(
    private readonly endpoints: WebhookEndpointQueries,
    private readonly deliveries: WebhookDeliveries,
    private readonly query: WebhookDeliveriesQuery,
    private readonly events: WebhookEventsQuery,
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly store: WebhookDeliveryStore,
  ) {}

  async execute({ companyId, endpointId, since, requestedBy, options }: RecoverWebhookDeliveriesMessage): Promise<RecoverResult> {
    const endpoint = await this.endpoints.get(companyId, endpointId);
    const dryRun = options.dryRun === true;
    // A disabled endpoint gets no attempts: recovering would leave the deliveries pending for nothing.
    if (!endpoint.enabled && !dryRun) throw new WebhookEndpointDisabledError();
    const failed = await this.query.failedSince(endpointId, since, options.until);
    const missed = options.replayMissed ? await this.missedEvents(companyId, endpointId, endpoint.eventTypes, since, options.until) : [];
    const total = failed.length + missed.length;
    const result = { failed: failed.length, missed: options.replayMissed ? missed.length : null, dryRun };
    if (dryRun) return { ...result, recovered: 0, remaining: total };
    const chosenFailed = failed.slice(0, MAX_RECOVERED_PER_CALL);
    const chosenMissed = missed.slice(0, MAX_RECOVERED_PER_CALL - chosenFailed.length);
    for (const delivery of chosenFailed) await this.deliveries.redeliver(delivery.id, requestedBy);
    for (const event of chosenMissed) await this.deliveries.create(deliveryIdOf(event, endpointId), endpointId, companyId, event.body);
    const recovered = chosenFailed.length + chosenMissed.length;
    return { ...result, recovered, remaining: total - recovered };
  }

  /** The company's events created in the window, of the endpoint's types, with no delivery to it, oldest first. */
  private async missedEvents(companyId: string, endpointId: string, eventTypes: string[], since: string, until: string | undefined): Promise<WebhookEventDoc[]> {
    const types = new Set(eventTypes);
    const missed: WebhookEventDoc[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.events.page(companyId, { from: since, to: until, after, limit: EVENT_SCAN_BATCH });
      for (const event of page) {
        if (types.has(event.type) && !(await this.store.get(deliveryIdOf(event, endpointId)))) missed.push(event);
      }
      if (page.length < EVENT_SCAN_BATCH) return missed;
      after = page[page.length - 1]!.eventId;
    }
  }
}

/** The id the dispatcher gives the delivery of this event to this endpoint. */
const deliveryIdOf = (event: WebhookEventDoc, endpointId: string) => deliveryIdFor(event.sourceEventId, endpointId);
