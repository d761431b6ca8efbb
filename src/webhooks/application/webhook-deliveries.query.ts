import { Inject, Injectable } from '@nestjs/common';
import { Page } from '../../platform/http/envelope';
import { DOCUMENT_READER, DocumentReader, Filter } from '../../platform/read-store/document-store.port';
import { canonicalJson } from '../domain/canonical-json';
import { webhookRequestHeaders } from '../domain/webhook-signature';
import { WebhookDeliveryNotFoundError } from '../domain/webhooks.errors';
import { DeliveryAttemptView, WEBHOOK_DELIVERIES, WebhookDeliveryView } from '../projections/webhooks-read-model.projection';

export interface DeliveryFilters {
  status?: WebhookDeliveryView['status'];
  eventType?: string;
  /** Inclusive bounds on the delivery's createdAt (ISO timestamps). */
  from?: string;
  to?: string;
}

/**
 * One attempt as the dashboard shows it: what was sent (every header, the signature and its timestamp
 * included, and the body) and what came back. Attempts recorded before the signature was kept show
 * null for those two headers.
 */
export interface DeliveryAttemptResponse extends Omit<DeliveryAttemptView, 'signedAt' | 'signature'> {
  requestHeaders: Record<string, string | null>;
  /** The canonical JSON body; null for deliveries projected before bodies were kept (rebuild `webhooks`). */
  requestBody: string | null;
}

export type WebhookDeliveryResponse = Omit<WebhookDeliveryView, 'body' | 'attempts'> & { attempts: DeliveryAttemptResponse[] };

/** Deliveries are read this many at a time when a time window has to be applied in memory. */
const SCAN_BATCH = 500;
const NEWEST_FIRST = [
  { field: 'createdAt', direction: 'desc' as const },
  { field: 'id', direction: 'desc' as const },
];

@Injectable()
export class WebhookDeliveriesQuery {
  constructor(@Inject(DOCUMENT_READER) private readonly store: DocumentReader) {}

  /**
   * Newest first, paged. Status and event type are store filters; the time window is applied while
   * reading newest first (the store filters by equality only), stopping at the first delivery older
   * than `from`, so its cost grows with the deliveries newer than `from`, not with the whole history.
   */
  async list(endpointId: string, page: number, limit: number, filters: DeliveryFilters = {}): Promise<Page<WebhookDeliveryResponse>> {
    const filter: Filter = { endpointId };
    if (filters.status) filter.status = filters.status;
    if (filters.eventType) filter.eventType = filters.eventType;
    if (!filters.from && !filters.to) {
      const [items, total] = await Promise.all([
        this.store.find<WebhookDeliveryView>(WEBHOOK_DELIVERIES, { filter, sort: NEWEST_FIRST, skip: (page - 1) * limit, limit }),
        this.store.count(WEBHOOK_DELIVERIES, filter),
      ]);
      return Page.of(items.map(present), page, limit, total);
    }
    const inWindow = await this.window(filter, filters.from, filters.to);
    return Page.of(inWindow.slice((page - 1) * limit, page * limit).map(present), page, limit, inWindow.length);
  }

  /** Every failed delivery of an endpoint created at or after `since`, oldest first. */
  async failedSince(endpointId: string, since: string): Promise<WebhookDeliveryView[]> {
    return (await this.window({ endpointId, status: 'failed' }, since, undefined)).reverse();
  }

  async get(deliveryId: string, companyId: string): Promise<WebhookDeliveryResponse> {
    const delivery = await this.store.get<WebhookDeliveryView>(WEBHOOK_DELIVERIES, deliveryId);
    if (!delivery || delivery.companyId !== companyId) throw new WebhookDeliveryNotFoundError();
    return present(delivery);
  }

  private async window(filter: Filter, from: string | undefined, to: string | undefined): Promise<WebhookDeliveryView[]> {
    const matched: WebhookDeliveryView[] = [];
    for (let skip = 0; ; skip += SCAN_BATCH) {
      const batch = await this.store.find<WebhookDeliveryView>(WEBHOOK_DELIVERIES, { filter, sort: NEWEST_FIRST, skip, limit: SCAN_BATCH });
      for (const delivery of batch) {
        if (from !== undefined && delivery.createdAt < from) return matched;
        if (to === undefined || delivery.createdAt <= to) matched.push(delivery);
      }
      if (batch.length < SCAN_BATCH) return matched;
    }
  }
}

function present(delivery: WebhookDeliveryView): WebhookDeliveryResponse {
  const { body, attempts, ...rest } = delivery;
  const requestBody = body ? canonicalJson(body) : null;
  return {
    ...rest,
    attempts: attempts.map(({ signedAt, signature, ...attempt }) => ({
      ...attempt,
      requestHeaders: webhookRequestHeaders(delivery.eventType, delivery.id, signedAt ?? null, signature ?? null),
      requestBody,
    })),
  };
}
