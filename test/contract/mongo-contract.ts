import { randomUUID } from 'node:crypto';
import { MongoReadStore } from '../../src/platform/read-store/mongo/mongo-read-store';

/**
 * Runs a read store port's contract against MongoDB when MONGO_URL is set, in a disposable database. The
 * server must be a replica set (commits use multi-document transactions), e.g. the docker compose one. Its
 * member advertises itself as mongo:27017, which resolves only inside the compose network, so from the host
 * connect directly (docker/README.md):
 *   MONGO_URL='mongodb://localhost:27017/paysplit?replicaSet=rs0&directConnection=true' npx jest test/contract/mongo-
 */
export function againstMongo(port: string, contract: (name: string, open: () => Promise<MongoReadStore>) => void): void {
  const url = process.env.MONGO_URL;
  if (!url) {
    describe.skip(`${port} contract: MongoDB (skipped: MONGO_URL is unset)`, () => {
      it('needs a MongoDB replica set at MONGO_URL', () => undefined);
    });
    return;
  }
  const dbName = `paysplit_contract_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

  contract('MongoDB', () => MongoReadStore.connect(url, dbName));

  // Runs after the contract's own afterAll has closed its store: drop the disposable database.
  afterAll(async () => {
    const store = await MongoReadStore.connect(url, dbName);
    try {
      await store.dropDatabase();
    } finally {
      await store.close();
    }
  });
}
