import { Module, Provider } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { loadOrCreateSandboxKey, SecretBox } from '../platform/crypto/secret-box';
import { APP_CONFIG } from '../platform/platform.tokens';
import { CompanyWebhooks } from './application/company-webhooks.repository';
import { CreateDeliveryHandler } from './application/create-delivery.handler';
import { WebhookAttemptHandler } from './application/webhook-attempt.handler';
import { WebhookDeliveries } from './application/webhook-deliveries';
import { WebhookDeliveriesQuery } from './application/webhook-deliveries.query';
import { WebhookDispatcherProcessManager } from './application/webhook-dispatcher.process-manager';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { SECRET_BOX, WEBHOOK_POSTER } from './application/webhook.tokens';
import { WebhookDeliveriesController } from './http/webhook-deliveries.controller';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { WebhookSecretController } from './http/webhook-secret.controller';
import { WebhookHttpClient } from './infrastructure/webhook-http-client';
import { WebhooksReadModelProjection } from './projections/webhooks-read-model.projection';

const infrastructure: Provider[] = [
  { provide: SECRET_BOX, useFactory: (config: AppConfig) => new SecretBox(config.secretsKey ?? loadOrCreateSandboxKey(config.dataDir)), inject: [APP_CONFIG] },
  {
    provide: WEBHOOK_POSTER,
    useFactory: (config: AppConfig) => new WebhookHttpClient({ allowPrivateNetworks: config.webhookAllowPrivateNetworks, timeoutMs: config.webhookTimeoutMs }),
    inject: [APP_CONFIG],
  },
];

@Module({
  controllers: [WebhookEndpointsController, WebhookDeliveriesController, WebhookSecretController],
  providers: [
    ...infrastructure,
    WebhookDeliveries,
    WebhookAttemptHandler,
    CreateDeliveryHandler,
    WebhookDispatcherProcessManager,
    WebhooksReadModelProjection,
    CompanyWebhooks,
    WebhookEndpointsService,
    WebhookDeliveriesQuery,
  ],
})
export class WebhooksModule {}
