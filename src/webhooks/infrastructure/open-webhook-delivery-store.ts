import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../platform/config/app-config';
import { WebhookDeliveryStore } from '../application/webhook-delivery-store.port';
import { MongoWebhookDeliveryStore } from './mongo-webhook-delivery-store';
import { SqliteWebhookDeliveryStore } from './sqlite-webhook-delivery-store';

/** With MONGO_URL, a collection beside the read store's; otherwise DATA_DIR/webhooks.db. */
export async function openWebhookDeliveryStore(config: AppConfig): Promise<WebhookDeliveryStore> {
  if (config.mongoUrl) return MongoWebhookDeliveryStore.connect(config.mongoUrl);
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteWebhookDeliveryStore(join(config.dataDir, 'webhooks.db'));
}
