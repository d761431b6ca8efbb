// Public API for webhook receivers: verify a delivery's signature with the company's signing secret.
export {
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  TIMESTAMP_HEADER,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookVerification,
} from './domain/webhook-signature';
