import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { WebhookEndpointNotFoundError } from '../domain/webhooks.errors';
import { WEBHOOK_ENDPOINTS, WebhookEndpointView } from '../projections/webhooks-read-model.projection';

export const VIEW_FIELDS = ['id', 'url', 'eventTypes', 'enabled', 'onProbation', 'createdAt', 'updatedAt'] as const;
export type EndpointResponse = Pick<WebhookEndpointView, (typeof VIEW_FIELDS)[number]>;

/** Reads a company's webhook endpoints; another company's endpoint does not exist for the caller (404). */
@Injectable()
export class WebhookEndpointQueries {
  constructor(@Inject(DOCUMENT_READER) private readonly store: DocumentReader) {}

  async list(companyId: string): Promise<EndpointResponse[]> {
    const endpoints = await this.store.find<WebhookEndpointView>(WEBHOOK_ENDPOINTS, { filter: { companyId }, sort: [{ field: 'createdAt', direction: 'asc' }] });
    return endpoints.map(toResponse);
  }

  async get(companyId: string, endpointId: string): Promise<EndpointResponse> {
    const endpoint = await this.store.get<WebhookEndpointView>(WEBHOOK_ENDPOINTS, endpointId);
    if (!endpoint || endpoint.companyId !== companyId) throw new WebhookEndpointNotFoundError();
    return toResponse(endpoint);
  }
}

function toResponse(endpoint: WebhookEndpointView): EndpointResponse {
  const { id, url, eventTypes, enabled, onProbation, createdAt, updatedAt } = endpoint;
  return { id, url, eventTypes, enabled, onProbation, createdAt, updatedAt };
}
