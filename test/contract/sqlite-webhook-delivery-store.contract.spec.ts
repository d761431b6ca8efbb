import { SqliteWebhookDeliveryStore } from '../../src/webhooks/infrastructure/sqlite-webhook-delivery-store';
import { tempDir } from '../support/temp-dir';
import { webhookDeliveryStoreContract } from './webhook-delivery-store.contract';

webhookDeliveryStoreContract('SQLite', async () => new SqliteWebhookDeliveryStore(`${tempDir('webhook-delivery-store-contract')}/webhooks.db`));
