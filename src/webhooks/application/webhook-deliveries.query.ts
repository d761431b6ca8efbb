import { Inject, Injectable } from '@nestjs/common';
import { Page } from '../../platform/http/envelope';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { WebhookDeliveryNotFoundError } from '../domain/webhooks.errors';
import { WEBHOOK_DELIVERIES, WebhookDeliveryView } from '../projections/webhooks-read-model.projection';

@Injectable()
export class WebhookDeliveriesQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly store: DocumentReader) {}

  async list(endpointId: string, page: number, limit: number): Promise<Page<WebhookDeliveryView>> {
    const filter = { endpointId };
    const [items, total] = await Promise.all([
      this.store.find<WebhookDeliveryView>(WEBHOOK_DELIVERIES, {
        filter,
        sort: [
          { field: 'createdAt', direction: 'desc' },
          { field: 'id', direction: 'desc' },
        ],
        skip: (page - 1) * limit,
        limit,
      }),
      this.store.count(WEBHOOK_DELIVERIES, filter),
    ]);
    return Page.of(items, page, limit, total);
  }

  async get(deliveryId: string, companyId: string): Promise<WebhookDeliveryView> {
    const delivery = await this.store.get<WebhookDeliveryView>(WEBHOOK_DELIVERIES, deliveryId);
    if (!delivery || delivery.companyId !== companyId) throw new WebhookDeliveryNotFoundError();
    return delivery;
  }
}
