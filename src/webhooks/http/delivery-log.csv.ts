import { CsvColumn } from '../../platform/http/csv';
import type { WebhookDeliveryResponse } from '../application/webhook-deliveries.query';

/** The CSV columns of an endpoint's delivery log (`Accept: text/csv`): one row per delivery, its last attempt's outcome, not every attempt. */
export const DELIVERY_LOG_CSV: CsvColumn<WebhookDeliveryResponse>[] = [
  { header: 'id', value: (d) => d.id },
  { header: 'endpointId', value: (d) => d.endpointId },
  { header: 'eventId', value: (d) => d.eventId },
  { header: 'eventType', value: (d) => d.eventType },
  { header: 'status', value: (d) => d.status },
  { header: 'createdAt', value: (d) => d.createdAt },
  { header: 'updatedAt', value: (d) => d.updatedAt },
  { header: 'attempts', value: (d) => d.attempts.length },
  { header: 'lastAttemptAt', value: (d) => d.attempts.at(-1)?.attemptedAt },
  { header: 'lastResponseStatus', value: (d) => d.attempts.at(-1)?.responseStatus },
  { header: 'lastLatencyMs', value: (d) => d.attempts.at(-1)?.latencyMs },
  { header: 'lastError', value: (d) => d.attempts.at(-1)?.error },
  { header: 'nextAttemptAt', value: (d) => d.nextAttemptAt },
];
