import { AppLogger } from '../../platform/logging/app-logger';
import { NO_REACTION, Workflow } from '../../platform/workflows/workflow';
import { SPLIT_STREAM_PREFIX, splitOwner } from '../../split';
import { ORDER_STREAM_PREFIX } from '../../checkout';
import { SESSION_STREAM_PREFIX } from '../../payout-embed';
import { INVOICE_STREAM_PREFIX } from '../../collection';
import { companyWebhooksDecider, CompanyWebhooksState } from '../domain/company-webhooks.decider';
import { companyWebhooksStreamId, DeliveryBody } from '../domain/webhooks.events';
import { CreateDeliveryMessage } from './create-delivery.handler';
import { WebhookEventType } from '../domain/webhook-event-types';
import { deliveryBodyOf, deliveryIdFor, publicWebhookEvent } from './webhook-event-mapping';

/** The companies an event is for (one; both parties of a Split for invoice events), and their endpoints as they are when the event is processed. */
export type DispatchState = { companyId: string; webhooks: CompanyWebhooksState }[] | null;

/**
 * Follows the log and turns each mapped domain event into one delivery per endpoint that is enabled
 * and subscribed when the event is processed. Delivery ids derive from (event, endpoint), so
 * reprocessing after a crash never duplicates a delivery.
 */
export function webhookDispatcherWorkflow(logger: AppLogger): Workflow<DispatchState> {
  return {
    name: 'webhook_dispatcher',
    streams: [SPLIT_STREAM_PREFIX, ORDER_STREAM_PREFIX, SESSION_STREAM_PREFIX, INVOICE_STREAM_PREFIX],
    timers: [],
    handles: (event) => publicWebhookEvent(event) !== null,
    async load(input, reader) {
      if (input.kind !== 'event') return null;
      const published = publicWebhookEvent(input.event)!;
      const companyIds =
        'companyIds' in published ? [...new Set(published.companyIds)] : ['companyId' in published ? published.companyId : await splitOwner(reader, published.splitId)];
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
