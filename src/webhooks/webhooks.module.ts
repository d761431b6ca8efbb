import { Module } from '@nestjs/common';
import { PLATFORM } from '../platform/platform.tokens';
import { Platform } from '../platform/platform';
import { CompanyWebhooks } from './application/company-webhooks.repository';
import { WebhookAttemptHandler } from './application/webhook-attempt.handler';
import { WebhookDeliveries } from './application/webhook-deliveries';
import { WebhookDeliveriesQuery } from './application/webhook-deliveries.query';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
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
  controllers: [WebhookEndpointsController, WebhookDeliveriesController, WebhookSecretController],
  providers: [
    { provide: SECRET_BOX, ...shared('secrets') },
    { provide: WebhookDeliveries, ...shared('deliveries') },
    { provide: WebhookAttemptHandler, ...shared('attempts') },
    CompanyWebhooks,
    WebhookEndpointsService,
    WebhookDeliveriesQuery,
  ],
})
export class WebhooksModule {}
