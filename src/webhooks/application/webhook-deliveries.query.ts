import { Inject, Injectable } from '@nestjs/common';
import { Page } from '../../platform/http/envelope';
import { webhookRequestHeaders } from '../domain/webhook-signature';
import { WebhookDeliveryNotFoundError } from '../domain/webhooks.errors';
import { DeliveryAttemptRecord, DeliveryFilter, DeliveryRecord, WEBHOOK_DELIVERY_STORE, WebhookDeliveryStore } from './webhook-delivery-store.port';

export type DeliveryFilters = Omit<DeliveryFilter, 'endpointId'>;

/**
 * One attempt as the dashboard shows it: what was sent (every header, the signature and its timestamp
 * included, and the body) and what came back.
 */
export interface DeliveryAttemptResponse extends Omit<DeliveryAttemptRecord, 'signedAt' | 'signature'> {
  requestHeaders: Record<string, string | null>;
  /** The canonical JSON body every attempt sent. */
  requestBody: string;
}

export type WebhookDeliveryResponse = Omit<DeliveryRecord, 'body' | 'attempts' | 'lastAttempt' | 'seriesStart'> & { attempts: DeliveryAttemptResponse[] };

/** Failed deliveries are read this many at a time by failedSince. */
const SCAN_BATCH = 500;

@Injectable()
export class WebhookDeliveriesQuery {
  constructor(@Inject(WEBHOOK_DELIVERY_STORE) private readonly store: WebhookDeliveryStore) {}

  /** Newest first, paged; every filter is applied by the store. */
  async list(endpointId: string, page: number, limit: number, filters: DeliveryFilters = {}): Promise<Page<WebhookDeliveryResponse>> {
    const filter = { ...filters, endpointId };
    const [items, total] = await Promise.all([this.store.list(filter, (page - 1) * limit, limit), this.store.count(filter)]);
    return Page.of(items.map(present), page, limit, total);
  }

  /** Every failed delivery of an endpoint created at or after `since` (and at or before `until`, if given), oldest first. */
  async failedSince(endpointId: string, since: string, until?: string): Promise<DeliveryRecord[]> {
    const failed: DeliveryRecord[] = [];
    for (let skip = 0; ; skip += SCAN_BATCH) {
      const batch = await this.store.list({ endpointId, status: 'failed', from: since, ...(until ? { to: until } : {}) }, skip, SCAN_BATCH);
      failed.push(...batch);
      if (batch.length < SCAN_BATCH) return failed.reverse();
    }
  }

  async get(deliveryId: string, companyId: string): Promise<WebhookDeliveryResponse> {
    return present(await this.record(deliveryId, companyId));
  }

  /** The company's delivery, or 404. */
  async record(deliveryId: string, companyId: string): Promise<DeliveryRecord> {
    const delivery = await this.store.get(deliveryId);
    if (!delivery || delivery.companyId !== companyId) throw new WebhookDeliveryNotFoundError();
    return delivery;
  }
}

export function present(delivery: DeliveryRecord): WebhookDeliveryResponse {
  const { body, attempts, lastAttempt: _last, seriesStart: _series, ...rest } = delivery;
  return {
    ...rest,
    attempts: attempts.map(({ signedAt, signature, ...attempt }) => ({
      ...attempt,
      requestHeaders: webhookRequestHeaders(delivery.eventType, delivery.id, signedAt, signature),
      requestBody: body,
    })),
  };
}
