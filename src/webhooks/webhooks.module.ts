import { Module, Provider } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { loadOrCreateSandboxKey, SecretBox } from '../platform/crypto/secret-box';
import { APP_CONFIG } from '../platform/platform.tokens';
import { CompanyWebhooks } from './application/company-webhook-settings';
import { CreateDeliveryHandler } from './application/create-delivery.handler';
import { WebhookDeliveryWorker } from './application/webhook-delivery-worker';
import { WEBHOOK_DELIVERY_STORE } from './application/webhook-delivery-store.port';
import { openWebhookDeliveryStore } from './infrastructure/open-webhook-delivery-store';
import { WebhookDeliveries } from './application/webhook-deliveries';
import { WebhookDeliveriesQuery } from './application/webhook-deliveries.query';
import { WebhookDispatcherProcessManager } from './application/webhook-dispatcher.process-manager';
import { SECRET_BOX, WEBHOOK_POSTER } from './application/webhook.tokens';
import { CreateWebhookEndpointHandler } from './application/create-webhook-endpoint.handler';
import { DeleteWebhookEndpointHandler } from './application/delete-webhook-endpoint.handler';
import { RedeliverWebhookHandler } from './application/redeliver-webhook.handler';
import { RecoverWebhookDeliveriesHandler } from './application/recover-webhook-deliveries.handler';
import { RotateWebhookSecretHandler } from './application/rotate-webhook-secret.handler';
import { TestWebhookEndpointHandler } from './application/test-webhook-endpoint.handler';
import { UpdateWebhookEndpointHandler } from './application/update-webhook-endpoint.handler';
import { WebhookEndpointQueries } from './application/webhook-endpoint-queries';
import { WebhookQueueMetrics } from './application/webhook-queue.metrics';
import { WebhookDeliveriesController } from './http/webhook-deliveries.controller';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { WebhookEventTypesController } from './http/webhook-event-types.controller';
import { WebhookSecretController } from './http/webhook-secret.controller';
import { WebhookHttpClient } from './infrastructure/webhook-http-client';
import { WebhooksReadModelProjection } from './projections/webhooks-read-model.projection';
import { WebhookEventsProjection } from './projections/webhook-events.projection';
import { WebhookEventsQuery } from './application/webhook-events.query';
import { WebhookEventsController } from './http/webhook-events.controller';

const infrastructure: Provider[] = [
  { provide: SECRET_BOX, useFactory: (config: AppConfig) => new SecretBox(config.secretsKey ?? loadOrCreateSandboxKey(config.dataDir)), inject: [APP_CONFIG] },
  {
    provide: WEBHOOK_POSTER,
    useFactory: (config: AppConfig) => new WebhookHttpClient({ allowPrivateNetworks: config.webhookAllowPrivateNetworks, timeoutMs: config.webhookTimeoutMs }),
    inject: [APP_CONFIG],
  },
  { provide: WEBHOOK_DELIVERY_STORE, useFactory: (config: AppConfig) => openWebhookDeliveryStore(config), inject: [APP_CONFIG] },
];

@Module({
  controllers: [WebhookEndpointsController, WebhookDeliveriesController, WebhookSecretController, WebhookEventTypesController, WebhookEventsController],
  providers: [
    ...infrastructure,
    WebhookDeliveries,
    WebhookDeliveryWorker,
    CreateDeliveryHandler,
    WebhookDispatcherProcessManager,
    WebhooksReadModelProjection,
    CompanyWebhooks,
    WebhookEndpointQueries,
    WebhookDeliveriesQuery,
    CreateWebhookEndpointHandler,
    UpdateWebhookEndpointHandler,
    DeleteWebhookEndpointHandler,
    TestWebhookEndpointHandler,
    RotateWebhookSecretHandler,
    RedeliverWebhookHandler,
    RecoverWebhookDeliveriesHandler,
    WebhookQueueMetrics,
    WebhookEventsProjection,
    WebhookEventsQuery,
  ],
})
export class WebhooksModule {}
