import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { PLATFORM } from '../platform/platform.tokens';
import { Platform } from '../platform/platform';
import { CompanyWebhooks } from './application/company-webhooks.repository';
import { CreateWebhookEndpointHandler } from './application/create-webhook-endpoint.handler';
import { DeleteWebhookEndpointHandler } from './application/delete-webhook-endpoint.handler';
import { RedeliverWebhookHandler } from './application/redeliver-webhook.handler';
import { RotateWebhookSecretHandler } from './application/rotate-webhook-secret.handler';
import { TestWebhookEndpointHandler } from './application/test-webhook-endpoint.handler';
import { UpdateWebhookEndpointHandler } from './application/update-webhook-endpoint.handler';
import { WebhookAttemptHandler } from './application/webhook-attempt.handler';
import { WebhookDeliveries } from './application/webhook-deliveries';
import { WebhookDeliveriesQuery } from './application/webhook-deliveries.query';
import { WebhookEndpointQueries } from './application/webhook-endpoint-queries';
import { SECRET_BOX } from './application/webhook.tokens';
import { WebhookDeliveriesController } from './http/webhook-deliveries.controller';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { WebhookSecretController } from './http/webhook-secret.controller';
import { webhookServices } from './webhooks.composition';

const shared = <K extends 'secrets' | 'deliveries' | 'attempts'>(key: K) => ({
  useFactory: (platform: Platform) => webhookServices(platform)[key],
  inject: [PLATFORM],
});

@Module({
  imports: [CqrsModule],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController, WebhookSecretController],
  providers: [
    { provide: SECRET_BOX, ...shared('secrets') },
    { provide: WebhookDeliveries, ...shared('deliveries') },
    { provide: WebhookAttemptHandler, ...shared('attempts') },
    CompanyWebhooks,
    WebhookEndpointQueries,
    WebhookDeliveriesQuery,
    CreateWebhookEndpointHandler,
    UpdateWebhookEndpointHandler,
    DeleteWebhookEndpointHandler,
    TestWebhookEndpointHandler,
    RotateWebhookSecretHandler,
    RedeliverWebhookHandler,
  ],
})
export class WebhooksModule {}
