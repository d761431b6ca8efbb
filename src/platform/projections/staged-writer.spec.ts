import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';
import { tempDir } from '../../../test/support/temp-dir';
import { Doc } from '../read-store/document-store.port';
import { StagedWriter } from './staged-writer';

describe('StagedWriter', () => {
  async function storeWith(docs: Doc[]): Promise<SqliteReadStore> {
    const store = new SqliteReadStore(`${tempDir('staged')}/read.db`);
    await store.registerProjection('p', [{ name: 'things' }]);
    const writes = docs.map((doc) => ({ kind: 'put' as const, collection: 'things', doc }));
    await store.commitProjection({ projection: 'p', generation: 1, checkpoint: 1, streamRevisions: {}, writes });
    return store;
  }

  it('finds stored documents overlaid with staged puts and deletes, sorted and paged', async () => {
    const store = await storeWith(['a', 'b', 'c'].map((id, i) => ({ id, owner: 'x', n: i })));
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

  it('matches staged documents to one-of bounds as the store matches stored ones', async () => {
    const store = await storeWith(['OPEN', 'PAID'].map((status, i) => ({ id: `s${i}`, status })));
    const writer = new StagedWriter(store.generationReader('p', 1));
    writer.put('things', { id: 's1', status: 'OVERDUE' });
    writer.put('things', { id: 's2', status: 'PAID' });
    writer.put('things', { id: 's3', status: 1 });
    const range = { status: { oneOf: ['OPEN', 'OVERDUE', 1] } };
    expect((await writer.find('things', { range, sort: [{ field: 'id', direction: 'asc' }] })).map((d) => d.id)).toEqual(['s0', 's1', 's3']);
    expect(await writer.count('things', undefined, { status: { oneOf: ['PAID', '1'] } })).toBe(1);
    await store.close();
  });

  it('keeps its own copy of what is put, and gives get a copy of its own', async () => {
    const store = new SqliteReadStore(`${tempDir('staged')}/read.db`);
    await store.registerProjection('p', [{ name: 'things' }]);
    const writer = new StagedWriter(store.generationReader('p', 1));
    const put = { id: 'a', rows: [{ n: 1 }] };
    writer.put('things', put);
    put.rows.push({ n: 2 });
    put.rows[0]!.n = 5;
    const copy = await writer.get<{ id: string; rows: { n: number }[] }>('things', 'a');
    expect(copy).toEqual({ id: 'a', rows: [{ n: 1 }] });
    copy!.rows[0]!.n = 99;
    expect(writer.writes()).toEqual([{ kind: 'put', collection: 'things', doc: { id: 'a', rows: [{ n: 1 }] } }]);
    writer.delete('things', 'a');
    expect(await writer.get('things', 'a')).toBeNull();
    await store.close();
  });

  it('stages what an edited document holds at commit, and reads it as a copy', async () => {
    const store = new SqliteReadStore(`${tempDir('staged')}/read.db`);
    await store.registerProjection('p', [{ name: 'things' }]);
    const doc = { id: 'a', rows: [{ n: 1 }], owner: 'x' };
    await store.commitProjection({ projection: 'p', generation: 1, checkpoint: 1, streamRevisions: {}, writes: [{ kind: 'put', collection: 'things', doc }] });
    const writer = new StagedWriter(store.generationReader('p', 1));
    const edited = await writer.edit<typeof doc>('things', 'a');
    expect(await writer.edit('things', 'a')).toBe(edited);
    expect(await writer.edit('things', 'missing')).toBeNull();
    edited!.rows[0]!.n = 2;
    const seen = await writer.get<typeof doc>('things', 'a');
    expect(seen).toEqual({ id: 'a', rows: [{ n: 2 }], owner: 'x' });
    edited!.rows.push({ n: 3 });
    edited!.owner = 'y';
    expect(seen!.rows).toHaveLength(1);
    expect(await writer.get('things', 'a')).toEqual({ id: 'a', rows: [{ n: 2 }, { n: 3 }], owner: 'y' });
    expect((await writer.find('things', { filter: { owner: 'y' } })).map((d) => d.id)).toEqual(['a']);
    expect(writer.writes()).toEqual([{ kind: 'put', collection: 'things', doc: { id: 'a', rows: [{ n: 2 }, { n: 3 }], owner: 'y' } }]);

    writer.put('things', { id: 'a', rows: [], owner: 'z' });
    edited!.owner = 'too late';
    expect(writer.writes()).toEqual([{ kind: 'put', collection: 'things', doc: { id: 'a', rows: [], owner: 'z' } }]);
    writer.delete('things', 'a');
    expect(await writer.edit('things', 'a')).toBeNull();
    await store.close();
  });
  it('does not write an edited document that still holds what the store does, and writes one that changed or was put', async () => {
    const store = new SqliteReadStore(`${tempDir('staged')}/read.db`);
    await store.registerProjection('p', [{ name: 'things' }]);
    const stored = [
      { id: 'untouched', rows: [{ n: 1 }] },
      { id: 'changed-back', rows: [{ n: 1 }], owner: 'x' },
      { id: 'changed', rows: [{ n: 1 }] },
      { id: 'put-again', n: 1 },
      { id: 'edited-after-put', n: 1 },
    ];
    await store.commitProjection({
      projection: 'p',
      generation: 1,
      checkpoint: 1,
      streamRevisions: {},
      writes: stored.map((doc) => ({ kind: 'put' as const, collection: 'things', doc })),
    });
    try {
      await expectOnlyChangedWritten(new StagedWriter(store.generationReader('p', 1)));
    } finally {
      await store.close();
    }
  });

  async function expectOnlyChangedWritten(writer: StagedWriter): Promise<void> {
    await writer.edit('things', 'untouched');
    const back = (await writer.edit<{ id: string; rows: { n: number }[]; owner?: string }>('things', 'changed-back'))!;
    back.rows[0]!.n = 2;
    delete back.owner;
    back.rows[0]!.n = 1;
    back.owner = 'x';
    (await writer.edit<{ id: string; rows: { n: number }[] }>('things', 'changed'))!.rows.push({ n: 2 });
    writer.put('things', { id: 'put-again', n: 1 });
    writer.put('things', { id: 'edited-after-put', n: 1 });
    await writer.edit('things', 'edited-after-put');
    const written = writer.writes().sort((a, b) => (a.kind === 'put' && b.kind === 'put' ? a.doc.id.localeCompare(b.doc.id) : 0));
    expect(written).toEqual([
      { kind: 'put', collection: 'things', doc: { id: 'changed', rows: [{ n: 1 }, { n: 2 }] } },
      { kind: 'put', collection: 'things', doc: { id: 'edited-after-put', n: 1 } },
      { kind: 'put', collection: 'things', doc: { id: 'put-again', n: 1 } },
    ]);
  }

  it('reads a stored document, or its absence, once per batch, and its own writes still win over what it read', async () => {
    const stored = { id: 'a', n: 1 };
    const store = new SqliteReadStore(`${tempDir('staged')}/read.db`);
    await store.registerProjection('p', [{ name: 'things' }]);
    await store.commitProjection({ projection: 'p', generation: 1, checkpoint: 1, streamRevisions: {}, writes: [{ kind: 'put', collection: 'things', doc: stored }] });
    const reader = store.generationReader('p', 1);
    const reads: string[] = [];
    const writer = new StagedWriter({ ...reader, get: (collection, id) => (reads.push(id), reader.get(collection, id)) });
    const first = await writer.get<{ id: string; n: number }>('things', 'a');
    first!.n = 99;
    expect(await writer.get('things', 'a')).toEqual({ id: 'a', n: 1 });
    expect(await writer.get('things', 'missing')).toBeNull();
    expect(await writer.get('things', 'missing')).toBeNull();
    expect(reads).toEqual(['a', 'missing']);
    writer.put('things', { id: 'missing', n: 2 });
    expect(await writer.get('things', 'missing')).toEqual({ id: 'missing', n: 2 });
    (await writer.edit<{ id: string; n: number }>('things', 'a'))!.n = 3;
    expect(await writer.get('things', 'a')).toEqual({ id: 'a', n: 3 });
    writer.delete('things', 'a');
    expect(await writer.get('things', 'a')).toBeNull();
    expect(reads).toEqual(['a', 'missing']);
    expect(writer.writes()).toEqual([
      { kind: 'put', collection: 'things', doc: { id: 'missing', n: 2 } },
      { kind: 'delete', collection: 'things', id: 'a' },
    ]);
    await store.close();
  });
});
