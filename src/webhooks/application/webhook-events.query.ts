import { Inject, Injectable } from '@nestjs/common';
import { ValidationFailedError } from '../../platform/domain/domain-error';
import { DOCUMENT_READER, DocumentReader, Filter, Range } from '../../platform/read-store/document-store.port';
import { WebhookEventNotFoundError } from '../domain/webhooks.errors';
import { DeliveryBody } from '../domain/webhooks.events';
import { WEBHOOK_EVENTS, WebhookEventDoc } from '../projections/webhook-events.projection';

export interface WebhookEventFilters {
  type?: string;
  /** Inclusive bounds on the event's createdAt (canonical ISO UTC). */
  from?: string;
  to?: string;
  /** The id (`evt_...`) of the last event of the previous page: this page starts after it. */
  after?: string;
  limit: number;
}

/**
 * The events API (issue 28): the events a company's webhooks carry, oldest first by log position. The
 * cursor is an event id, resolved to its position: events appended while a client walks the pages come
 * after its last page, never inside the walk, so a walk sees every event once.
 */
@Injectable()
export class WebhookEventsQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly documents: DocumentReader) {}

  async list(companyId: string, filters: WebhookEventFilters): Promise<DeliveryBody[]> {
    return (await this.page(companyId, filters)).map((doc) => doc.body);
  }

  /** One event of the company, as delivered; 404 for another company's or an unknown id. */
  async get(companyId: string, eventId: string): Promise<DeliveryBody> {
    const doc = await this.documents.get<WebhookEventDoc>(WEBHOOK_EVENTS, `${companyId}:${eventId}`);
    if (!doc) throw new WebhookEventNotFoundError();
    return doc.body;
  }

  /** The documents of one page (recovery reads their source event ids). */
  async page(companyId: string, filters: WebhookEventFilters): Promise<WebhookEventDoc[]> {
    const filter: Filter = { companyId };
    if (filters.type) filter.type = filters.type;
    const range: Range = {};
    if (filters.after !== undefined) range.position = { gt: await this.positionOf(companyId, filters.after) };
    if (filters.from || filters.to) range.createdAt = { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lte: filters.to } : {}) };
    return this.documents.find<WebhookEventDoc>(WEBHOOK_EVENTS, { filter, range, sort: [{ field: 'position', direction: 'asc' }], limit: filters.limit });
  }

  private async positionOf(companyId: string, eventId: string): Promise<number> {
    const doc = await this.documents.get<WebhookEventDoc>(WEBHOOK_EVENTS, `${companyId}:${eventId}`);
    if (!doc) throw new ValidationFailedError('after is not one of your events', [{ field: 'after', message: "must be the id (evt_...) of one of the company's events" }]);
    return doc.position;
  }
}
