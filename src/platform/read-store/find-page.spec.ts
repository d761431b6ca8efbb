import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { findPage } from './find-page';
import { SqliteReadStore } from './sqlite/sqlite-read-store';

describe('findPage', () => {
  const bills = [
    { id: 'b1', owner: 'co_1', status: 'OPEN', dueAt: '2026-01-03' },
    { id: 'b2', owner: 'co_1', status: 'PAID', dueAt: '2026-01-01' },
    { id: 'b3', owner: 'co_1', status: 'OVERDUE', dueAt: '2026-01-02' },
    { id: 'b4', owner: 'co_1', status: 'OPEN', dueAt: '2026-01-02' },
    { id: 'b5', owner: 'co_2', status: 'OPEN', dueAt: '2026-01-01' },
    { id: 'b6', owner: 'co_1', status: 'OVERDUE', dueAt: '2026-01-05' },
  ];
  const sort = [
    { field: 'dueAt', direction: 'asc' },
    { field: 'id', direction: 'desc' },
  ] as const;

  async function storeWith(docs: typeof bills): Promise<SqliteReadStore> {
    const store = new SqliteReadStore(join(tempDir('find-page'), 'read.db'));
    await store.registerProjection('bills', [{ name: 'bills', indexes: [['owner', 'status', 'dueAt']] }]);
    const writes = docs.map((doc) => ({ kind: 'put' as const, collection: 'bills', doc }));
    await store.commitProjection({ projection: 'bills', generation: 1, checkpoint: 1, streamRevisions: {}, writes });
    return store;
  }

  it('given documents of several values, when paged by two of them, then each page holds the merged order and the total counts both', async () => {
    const store = await storeWith(bills);
    const query = { filter: { owner: 'co_1' }, range: { status: { oneOf: ['OPEN', 'OVERDUE'] } }, sort: [...sort] };
    const ids = async (page: number, limit: number) => {
      const [items, total] = await findPage<(typeof bills)[number]>(store, 'bills', query, page, limit);
      return { ids: items.map((item) => item.id), total };
    };

    // Due 01-02 twice (b4 before b3: id descending breaks the tie), then 01-03, then 01-05; co_2's and the paid one never.
    expect(await ids(1, 2)).toEqual({ ids: ['b4', 'b3'], total: 4 });
    expect(await ids(2, 2)).toEqual({ ids: ['b1', 'b6'], total: 4 });
    expect(await ids(3, 2)).toEqual({ ids: [], total: 4 });
    expect(await ids(1, 10)).toEqual({ ids: ['b4', 'b3', 'b1', 'b6'], total: 4 });
    await store.close();
  });

  it('given one value, then the page is that of an equality filter', async () => {
    const store = await storeWith(bills);
    const [items, total] = await findPage(store, 'bills', { filter: { owner: 'co_1' }, range: { status: { oneOf: ['OVERDUE'] } }, sort: [...sort] }, 2, 1);
    expect([items.map((item) => item.id), total]).toEqual([['b6'], 2]);
    await store.close();
  });

  it('given a value named twice, then its documents come once', async () => {
    const store = await storeWith(bills);
    const [items, total] = await findPage(store, 'bills', { filter: { owner: 'co_1' }, range: { status: { oneOf: ['OPEN', 'OPEN'] } }, sort: [...sort] }, 1, 10);
    expect([items.map((item) => item.id), total]).toEqual([['b4', 'b1'], 2]);
    await store.close();
  });
});
