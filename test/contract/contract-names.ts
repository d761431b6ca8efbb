import { randomUUID } from 'node:crypto';
import { DocumentStore } from '../../src/platform/read-store/document-store.port';

/** Projection, collection, lease and timer names are unique per test so a shared MongoDB server works too. */
export const unique = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/** A new projection owning one collection indexed the way the contracts query it. */
export async function registered(store: Pick<DocumentStore, 'registerProjection'>): Promise<{ projection: string; collection: string }> {
  const projection = unique('p');
  const collection = unique('c');
  await store.registerProjection(projection, [{ name: collection, indexes: [['owner'], ['owner', 'createdAt']] }]);
  return { projection, collection };
}
