import { randomUUID } from 'node:crypto';
import { MongoWebhookDeliveryStore } from '../../src/webhooks/infrastructure/mongo-webhook-delivery-store';
import { webhookDeliveryStoreContract } from './webhook-delivery-store.contract';

/** Runs when MONGO_URL is set (any MongoDB; no transactions needed), each test in a disposable database. */
const url = process.env.MONGO_URL;
if (!url) {
  describe.skip('WebhookDeliveryStore contract: MongoDB (skipped: MONGO_URL is unset)', () => {
    it('needs a MongoDB at MONGO_URL', () => undefined);
  });
} else {
  webhookDeliveryStoreContract('MongoDB', async () => {
    const store = await MongoWebhookDeliveryStore.connect(url, `paysplit_contract_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
    // The database goes when the test closes the store.
    const close = store.close.bind(store);
    store.close = async () => {
      await store.drop();
      await close();
    };
    return store;
  });
}
