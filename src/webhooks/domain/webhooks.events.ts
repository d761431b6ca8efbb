import { DomainEvent } from '../../platform/domain/decider';

export type WebhookEndpointCreated = DomainEvent<'webhook.endpoint.created', { endpointId: string; companyId: string; url: string; eventTypes: string[]; createdAt: string }>;
export type WebhookEndpointUpdated = DomainEvent<
  'webhook.endpoint.updated',
  { endpointId: string; companyId: string; url?: string; eventTypes?: string[]; enabled?: boolean; updatedAt: string }
>;
/** The first 2xx (live or test) ends probation for good. */
export type WebhookEndpointGraduated = DomainEvent<'webhook.endpoint.graduated', { endpointId: string; companyId: string; graduatedAt: string }>;
export type WebhookEndpointDeleted = DomainEvent<'webhook.endpoint.deleted', { endpointId: string; companyId: string; deletedAt: string }>;
/** The signing secret, sealed with SECRETS_KEY: never in clear text in the log. */
export type WebhookSecretRotated = DomainEvent<'webhook.secret.rotated', { companyId: string; sealedSecret: string; rotatedAt: string }>;

export type CompanyWebhooksEvent = WebhookEndpointCreated | WebhookEndpointUpdated | WebhookEndpointGraduated | WebhookEndpointDeleted | WebhookSecretRotated;

export interface DeliveryBody {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export type WebhookDeliveryCreated = DomainEvent<'webhook.delivery.created', { deliveryId: string; endpointId: string; companyId: string; body: DeliveryBody; createdAt: string }>;
export type WebhookDeliveryAttempted = DomainEvent<
  'webhook.delivery.attempted',
  {
    deliveryId: string;
    endpointId: string;
    attempt: number;
    attemptedAt: string;
    succeeded: boolean;
    responseStatus: number | null;
    latencyMs: number;
    error: string | null;
    /** The X-Paysplit-Timestamp (unix seconds) and X-Paysplit-Signature sent; absent on attempts recorded before they were kept. */
    signedAt?: string;
    signature?: string;
    /** When the next attempt is due, or null when this was the last one. */
    nextAttemptAt: string | null;
  }
>;
export type WebhookRedeliveryRequested = DomainEvent<
  'webhook.delivery.redelivery_requested',
  { deliveryId: string; endpointId: string; attempt: number; requestedAt: string; requestedBy: string }
>;

/**
 * What happens to a delivery, as the delivery decider decides it. These are not appended to the log:
 * a delivery is an operational row (WebhookDeliveryStore) that the worker updates with each outcome.
 */
export type WebhookDeliveryEvent = WebhookDeliveryCreated | WebhookDeliveryAttempted | WebhookRedeliveryRequested;

export const COMPANY_WEBHOOKS_STREAM_PREFIX = 'webhooks-';
export const companyWebhooksStreamId = (companyId: string) => `${COMPANY_WEBHOOKS_STREAM_PREFIX}${companyId}`;
