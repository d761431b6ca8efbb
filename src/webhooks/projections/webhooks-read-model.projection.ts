import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { COMPANY_WEBHOOKS_STREAM_PREFIX, CompanyWebhooksEvent } from '../domain/webhooks.events';

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

export const WEBHOOK_ENDPOINTS = 'webhook_endpoints';

const HANDLED = new Set<string>(['webhook.endpoint.created', 'webhook.endpoint.updated', 'webhook.endpoint.graduated', 'webhook.endpoint.deleted']);

/** Endpoints as listed in the portal (deliveries are rows of the WebhookDeliveryStore, read directly). */
@Injectable()
@LogSubscriber()
export class WebhooksReadModelProjection implements Projection {
  readonly name = 'webhooks';
  readonly streams = [COMPANY_WEBHOOKS_STREAM_PREFIX];
  readonly collections = [{ name: WEBHOOK_ENDPOINTS, indexes: [['companyId', 'createdAt']] }];

  handles(event: RecordedEvent): boolean {
    return HANDLED.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as CompanyWebhooksEvent;
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
      case 'webhook.endpoint.deleted':
        writer.delete(WEBHOOK_ENDPOINTS, event.data.endpointId);
        return;
      case 'webhook.secret.rotated':
        return;
    }
  }
}

function withoutIds<T extends { endpointId: string; companyId: string; updatedAt: string }>(data: T) {
  const { endpointId: _e, companyId: _c, updatedAt: _u, ...changes } = data;
  return changes;
}
