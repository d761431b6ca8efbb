import { DomainError } from '../../platform/domain/domain-error';

export const MAX_ENDPOINTS_PER_COMPANY = 10;

export class WebhookEndpointLimitError extends DomainError {
  readonly code = 'WEBHOOK_ENDPOINT_LIMIT';
  readonly kind = 'unprocessable';
  constructor() {
    super(`A company can have at most ${MAX_ENDPOINTS_PER_COMPANY} webhook endpoints`);
  }
}

export class WebhookEndpointNotFoundError extends DomainError {
  readonly code = 'WEBHOOK_ENDPOINT_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Webhook endpoint not found');
  }
}

export class WebhookDeliveryNotFoundError extends DomainError {
  readonly code = 'WEBHOOK_DELIVERY_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Webhook delivery not found');
  }
}

export class WebhookEndpointDisabledError extends DomainError {
  readonly code = 'WEBHOOK_ENDPOINT_DISABLED';
  readonly kind = 'conflict';
  constructor() {
    super('The endpoint is disabled: enable it before recovering its deliveries');
  }
}

export class WebhookEventNotFoundError extends DomainError {
  readonly code = 'WEBHOOK_EVENT_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Event not found');
  }
}
