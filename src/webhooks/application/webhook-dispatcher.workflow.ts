import { BoundedMap } from '../../platform/caching/bounded-map';
import { AppLogger } from '../../platform/logging/app-logger';
import { NO_REACTION, StateReader, Workflow } from '../../platform/workflows/workflow';
import { SPLIT_STREAM_PREFIX, splitOwner } from '../../split';
import { ORDER_STREAM_PREFIX } from '../../checkout';
import { SESSION_STREAM_PREFIX } from '../../payout-embed';
import { INVOICE_STREAM_PREFIX } from '../../collection';
import { companyWebhooksDecider, CompanyWebhooksState } from '../domain/company-webhooks.decider';
import { companyWebhooksStreamId, DeliveryBody } from '../domain/webhooks.events';
import { CreateDeliveryMessage } from './create-delivery.handler';
import { WebhookEventType } from '../domain/webhook-event-types';
import { deliveryBodyOf, deliveryIdFor, publicWebhookEvent } from './webhook-event-mapping';

/** Splits whose owner the dispatcher remembers (a Split's events come close together; a forgotten one is read again). */
const SPLIT_OWNERS_CACHED = 10_000;

/**
 * A Split's owner never changes, so the dispatcher reads it from the Split's stream once, not for every
 * event of the Split (each read is a store query: the dispatcher's reads were ~3% of the worker under the
 * settlement bench). A Split not found is not remembered.
 */
function splitOwners(): (reader: StateReader, splitId: string) => Promise<string | null> {
  const known = new BoundedMap<string, string>(SPLIT_OWNERS_CACHED);
  return async (reader, splitId) => {
    const remembered = known.get(splitId);
    if (remembered !== undefined) return remembered;
    const owner = await splitOwner(reader, splitId);
    if (owner !== null) known.set(splitId, owner);
    return owner;
  };
}

/** The companies an event is for (one; both parties of a Split for invoice events), and their endpoints as they are when the event is processed. */
export type DispatchState = { companyId: string; webhooks: CompanyWebhooksState }[] | null;

/**
 * Follows the log and turns each mapped domain event into one delivery per endpoint that is enabled
 * and subscribed when the event is processed. Delivery ids derive from (event, endpoint), so
 * reprocessing after a crash never duplicates a delivery.
 */
export function webhookDispatcherWorkflow(logger: AppLogger): Workflow<DispatchState> {
  const owners = splitOwners();
  return {
    name: 'webhook_dispatcher',
    streams: [SPLIT_STREAM_PREFIX, ORDER_STREAM_PREFIX, SESSION_STREAM_PREFIX, INVOICE_STREAM_PREFIX],
    timers: [],
    handles: (event) => publicWebhookEvent(event) !== null,
    async load(input, reader) {
      if (input.kind !== 'event') return null;
      const published = publicWebhookEvent(input.event)!;
      const companyIds =
        'companyIds' in published ? [...new Set(published.companyIds)] : ['companyId' in published ? published.companyId : await owners(reader, published.splitId)];
      const recipients = companyIds.filter((companyId): companyId is string => !!companyId);
      if (recipients.length === 0) {
        logger.warn({ eventId: input.event.id, type: input.event.type }, 'webhook event has no recipient company; not delivered');
        return null;
      }
      return Promise.all(recipients.map(async (companyId) => ({ companyId, webhooks: (await reader.load(companyWebhooksStreamId(companyId), companyWebhooksDecider)).state })));
    },
    react(input, state) {
      if (input.kind !== 'event' || !state) return NO_REACTION;
      const { event } = input;
      const published = publicWebhookEvent(event)!;
      const publicType: WebhookEventType = published.type;
      const body: DeliveryBody = deliveryBodyOf(event, published);
      const commands = state.flatMap(({ companyId, webhooks }) =>
        [...webhooks.endpoints.values()]
          .filter((endpoint) => endpoint.enabled && endpoint.eventTypes.includes(publicType))
          .map((endpoint) => new CreateDeliveryMessage(deliveryIdFor(event.id, endpoint.endpointId), endpoint.endpointId, companyId, body)),
      );
      return { commands, timers: [] };
    },
  };
}
