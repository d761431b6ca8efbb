import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { PrefetchedDocuments } from './prefetched-documents';
import { SqliteReadStore } from './sqlite/sqlite-read-store';

describe('PrefetchedDocuments', () => {
  it('fetches a collection’s documents in one query and answers gets from them, the rest from the store', async () => {
    const store = new SqliteReadStore(join(tempDir('prefetched'), 'read.db'));
    await store.registerProjection('things', [{ name: 'things' }]);
    const writes = ['a', 'b', 'c'].map((id) => ({ kind: 'put' as const, collection: 'things', doc: { id, n: id } }));
    await store.commitProjection({ projection: 'things', generation: 1, checkpoint: 1, streamRevisions: {}, writes });
    const getMany = jest.spyOn(store, 'getMany');
    const get = jest.spyOn(store, 'get');

    const documents = new PrefetchedDocuments(store);
    await documents.prefetch('things', ['a', 'b', 'a', 'missing']);
    await documents.prefetch('things', ['b']); // already known: no query
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(getMany).toHaveBeenCalledWith('things', ['a', 'b', 'missing']);
    expect(await documents.get('things', 'a')).toEqual({ id: 'a', n: 'a' });
    expect(await documents.get('things', 'missing')).toBeNull();
    expect(get).not.toHaveBeenCalled();

    expect(await documents.get('things', 'c')).toEqual({ id: 'c', n: 'c' }); // not prefetched: read from the store
    expect(get).toHaveBeenCalledTimes(1);
    expect(await documents.count('things')).toBe(3);
    await store.close();
  });
});
