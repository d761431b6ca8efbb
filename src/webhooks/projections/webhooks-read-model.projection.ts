import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { COMPANY_WEBHOOKS_STREAM_PREFIX, CompanyWebhooksEvent, DeliveryBody, DELIVERY_STREAM_PREFIX, WebhookDeliveryEvent } from '../domain/webhooks.events';

export interface WebhookEndpointView {
  id: string;
  companyId: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  onProbation: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttemptView {
  attempt: number;
  attemptedAt: string;
  succeeded: boolean;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  /** The timestamp and signature headers this attempt sent (null for attempts recorded before they were kept). */
  signedAt: string | null;
  signature: string | null;
}

export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  companyId: string;
  eventId: string;
  eventType: string;
  /** What every attempt sends (the delivery log shows it); absent on documents projected before it was kept. */
  body?: DeliveryBody;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttemptView[];
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const WEBHOOK_ENDPOINTS = 'webhook_endpoints';
export const WEBHOOK_DELIVERIES = 'webhook_deliveries';

type WebhooksEvent = CompanyWebhooksEvent | WebhookDeliveryEvent;
const HANDLED = new Set<string>([
  'webhook.endpoint.created',
  'webhook.endpoint.updated',
  'webhook.endpoint.graduated',
  'webhook.endpoint.deleted',
  'webhook.delivery.created',
  'webhook.delivery.attempted',
  'webhook.delivery.redelivery_requested',
]);

/** Endpoints as listed in the portal, and every delivery with all its attempts. */
@Injectable()
@LogSubscriber()
export class WebhooksReadModelProjection implements Projection {
  readonly name = 'webhooks';
  readonly streams = [COMPANY_WEBHOOKS_STREAM_PREFIX, DELIVERY_STREAM_PREFIX];
  readonly collections = [
    { name: WEBHOOK_ENDPOINTS, indexes: [['companyId', 'createdAt']] },
    {
      name: WEBHOOK_DELIVERIES,
      indexes: [
        ['endpointId', 'createdAt'],
        ['endpointId', 'status', 'createdAt'],
      ],
    },
  ];

  handles(event: RecordedEvent): boolean {
    return HANDLED.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as WebhooksEvent;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'webhook.endpoint.created': {
        const { endpointId, companyId, url, eventTypes, createdAt } = event.data;
        writer.put<WebhookEndpointView>(WEBHOOK_ENDPOINTS, { id: endpointId, companyId, url, eventTypes, enabled: true, onProbation: true, createdAt, updatedAt: createdAt });
        return;
      }
      case 'webhook.endpoint.updated':
      case 'webhook.endpoint.graduated': {
        const endpoint = await writer.get<WebhookEndpointView>(WEBHOOK_ENDPOINTS, event.data.endpointId);
        if (!endpoint) return;
        const changes = event.type === 'webhook.endpoint.graduated' ? { onProbation: false } : withoutIds(event.data);
        writer.put<WebhookEndpointView>(WEBHOOK_ENDPOINTS, { ...endpoint, ...changes, updatedAt: at });
        return;
      }
      case 'webhook.endpoint.deleted': {
        writer.delete(WEBHOOK_ENDPOINTS, event.data.endpointId);
        // The endpoint's delivery history goes with it (docs/webhooks.md#update-disable-delete).
        for (const delivery of await writer.find<WebhookDeliveryView>(WEBHOOK_DELIVERIES, { filter: { endpointId: event.data.endpointId } })) {
          writer.delete(WEBHOOK_DELIVERIES, delivery.id);
        }
        return;
      }
      case 'webhook.delivery.created': {
        const { deliveryId, endpointId, companyId, body, createdAt } = event.data;
        if (!(await writer.get(WEBHOOK_ENDPOINTS, endpointId))) return;
        writer.put<WebhookDeliveryView>(WEBHOOK_DELIVERIES, {
          id: deliveryId,
          endpointId,
          companyId,
          eventId: body.id,
          eventType: body.type,
          body,
          status: 'pending',
          attempts: [],
          nextAttemptAt: createdAt,
          createdAt,
          updatedAt: createdAt,
        });
        return;
      }
      case 'webhook.delivery.attempted': {
        const delivery = await writer.get<WebhookDeliveryView>(WEBHOOK_DELIVERIES, event.data.deliveryId);
        if (!delivery) return;
        const { attempt, attemptedAt, succeeded, responseStatus, latencyMs, error, nextAttemptAt, signedAt, signature } = event.data;
        writer.put<WebhookDeliveryView>(WEBHOOK_DELIVERIES, {
          ...delivery,
          status: succeeded ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed',
          attempts: [...delivery.attempts, { attempt, attemptedAt, succeeded, responseStatus, latencyMs, error, signedAt: signedAt ?? null, signature: signature ?? null }],
          nextAttemptAt,
          updatedAt: at,
        });
        return;
      }
      case 'webhook.delivery.redelivery_requested': {
        const delivery = await writer.get<WebhookDeliveryView>(WEBHOOK_DELIVERIES, event.data.deliveryId);
        if (delivery) writer.put<WebhookDeliveryView>(WEBHOOK_DELIVERIES, { ...delivery, status: 'pending', nextAttemptAt: event.data.requestedAt, updatedAt: at });
        return;
      }
      case 'webhook.secret.rotated':
        return;
    }
  }
}

function withoutIds<T extends { endpointId: string; companyId: string; updatedAt: string }>(data: T) {
  const { endpointId: _e, companyId: _c, updatedAt: _u, ...changes } = data;
  return changes;
}
