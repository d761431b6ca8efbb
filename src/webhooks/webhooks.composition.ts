import { Platform } from '../platform/platform';
import { SecretBox, loadOrCreateSandboxKey } from '../platform/crypto/secret-box';
import { WebhookAttemptHandler } from './application/webhook-attempt.handler';
import { WEBHOOK_ATTEMPT_TIMER, WebhookDeliveries } from './application/webhook-deliveries';
import { WebhookDispatcher } from './application/webhook-dispatcher.processor';
import { WebhookHttpClient } from './infrastructure/webhook-http-client';

export interface WebhookServices {
  secrets: SecretBox;
  deliveries: WebhookDeliveries;
  attempts: WebhookAttemptHandler;
  dispatcher: WebhookDispatcher;
  http: WebhookHttpClient;
}

type PlatformParts = Omit<Platform, 'engine'>;
const built = new WeakMap<object, WebhookServices>();

/**
 * The webhooks module's background parts (dispatcher subscription, attempt timer handler) are built from
 * the platform once per process, so the read-side composition root and the Nest module share them.
 */
export function webhookServices(platform: PlatformParts): WebhookServices {
  const existing = built.get(platform.timers);
  if (existing) return existing;
  const { config, aggregates, timers, clock, logger } = platform;
  const secrets = new SecretBox(config.secretsKey ?? loadOrCreateSandboxKey(config.dataDir));
  const http = new WebhookHttpClient({ allowPrivateNetworks: config.webhookAllowPrivateNetworks, timeoutMs: config.webhookTimeoutMs });
  const deliveries = new WebhookDeliveries(aggregates, timers, clock);
  const attempts = new WebhookAttemptHandler(aggregates, deliveries, http, secrets, clock, logger);
  timers.register(WEBHOOK_ATTEMPT_TIMER, attempts.onTimer);
  const services = { secrets, deliveries, attempts, dispatcher: new WebhookDispatcher(aggregates, deliveries, logger), http };
  built.set(platform.timers, services);
  return services;
}
