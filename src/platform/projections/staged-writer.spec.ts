import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { tempDir } from '../../../test/support/temp-dir';
import { StagedWriter } from './staged-writer';

describe('StagedWriter', () => {
  it('finds stored documents overlaid with staged puts and deletes, sorted and paged', async () => {
    const store = new SqliteReadStore(`${tempDir('staged')}/read.db`);
    await store.registerProjection('p', [{ name: 'things' }]);
    await store.commitProjection({
      projection: 'p',
      generation: 1,
      checkpoint: 1,
      streamRevisions: {},
      writes: ['a', 'b', 'c'].map((id, i) => ({ kind: 'put' as const, collection: 'things', doc: { id, owner: 'x', n: i } })),
    });
    const writer = new StagedWriter(store.generationReader('p', 1));
    writer.delete('things', 'b');
    writer.put('things', { id: 'd', owner: 'x', n: 10 });
    writer.put('things', { id: 'c', owner: 'y', n: 2 });
    const found = await writer.find<{ id: string; n: number }>('things', { filter: { owner: 'x' }, sort: [{ field: 'n', direction: 'desc' }] });
    expect(found.map((d) => d.id)).toEqual(['d', 'a']);
    expect(await writer.count('things', { owner: 'x' })).toBe(2);
    expect((await writer.find('things', { skip: 1, limit: 1, sort: [{ field: 'n', direction: 'asc' }] })).map((d) => d.id)).toEqual(['c']);
    await store.close();
  });
});
