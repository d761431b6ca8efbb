import { Doc, DocumentStore, DocumentWrite } from '../../src/platform/read-store/document-store.port';
import { StoreLifecycle } from '../../src/platform/read-store/read-store.port';
import { registered as register, unique } from './contract-names';

/**
 * Projection documents and bookkeeping: generations, checkpoints, stream revisions, rebuild swaps.
 * Every read store adapter must pass it: runs against SQLite always and against MongoDB when MONGO_URL is set.
 */
export function documentStoreContract(name: string, open: () => Promise<DocumentStore & StoreLifecycle>): void {
  describe(`DocumentStore contract: ${name}`, () => {
    let store: DocumentStore & StoreLifecycle;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });
    const registered = () => register(store);
    const put = <T extends Doc>(collection: string, doc: T): DocumentWrite => ({ kind: 'put', collection, doc });

    it('registers a projection at generation 1 with no checkpoint, idempotently', async () => {
      const { projection, collection } = await registered();
      await store.registerProjection(projection, [{ name: collection }]);
      expect(await store.projectionState(projection)).toEqual({
        projection,
        activeGeneration: 1,
        checkpoint: null,
        version: 1,
        status: 'running',
        error: null,
      });
    });

    it('records the projection version each generation is built with (default 1) and reports the active one', async () => {
      const { projection, collection } = await registered();
      const versioned = `${projection}_v`;
      await store.registerProjection(versioned, [{ name: `${collection}_v` }], 2);
      expect((await store.projectionState(versioned)).version).toBe(2);
      // Registering again (newer code) keeps what the stored generation was built with.
      await store.registerProjection(versioned, [{ name: `${collection}_v` }], 3);
      expect((await store.projectionState(versioned)).version).toBe(2);
      const shadow = await store.createShadowGeneration(versioned, 3);
      expect((await store.projectionState(versioned)).version).toBe(2);
      await store.activateGeneration(versioned, shadow);
      expect(await store.projectionState(versioned)).toMatchObject({ activeGeneration: shadow, version: 3 });
      const unversioned = await store.createShadowGeneration(projection);
      await store.activateGeneration(projection, unversioned);
      expect((await store.projectionState(projection)).version).toBe(1);
    });

    it('answers a read-model commit made beforeDisk with it readable, and synced() resolves once it is stored', async () => {
      const { projection, collection } = await registered();
      const result = await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 5,
        streamRevisions: { 'split-1': 0 },
        writes: [put(collection, { id: 'a' })],
        beforeDisk: true,
      });
      expect(result).toBe('committed');
      expect(await store.get(collection, 'a')).toEqual({ id: 'a' });
      expect(await store.checkpointOf(projection, 1)).toBe(5);
      await expect(store.synced()).resolves.toBeUndefined();
    });

    it('commits writes, checkpoint and stream revisions together and serves them to readers', async () => {
      const { projection, collection } = await registered();
      const result = await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 42,
        streamRevisions: { 'split-1': 3 },
        writes: [put(collection, { id: 'a', owner: 'x', amount: '10', createdAt: '2026-01-01' }), put(collection, { id: 'b', owner: 'y', amount: '20', createdAt: '2026-01-02' })],
      });
      expect(result).toBe('committed');
      expect(await store.get(collection, 'a')).toEqual({ id: 'a', owner: 'x', amount: '10', createdAt: '2026-01-01' });
      expect(await store.get(collection, 'missing')).toBeNull();
      expect(await store.checkpointOf(projection, 1)).toBe(42);
      expect(await store.streamRevisionOf(projection, 1, 'split-1')).toBe(3);
      expect(await store.streamRevisionOf(projection, 1, 'split-2')).toBeNull();
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 43,
        streamRevisions: {},
        writes: [{ kind: 'delete', collection, id: 'b' }],
      });
      expect(await store.get(collection, 'b')).toBeNull();
      expect((await store.projectionState(projection)).checkpoint).toBe(43);
      const replayed = await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 43,
        streamRevisions: { 'split-1': 9 },
        writes: [put(collection, { id: 'late', owner: 'z' })],
      });
      expect(replayed).toBe('stale');
      expect(await store.get(collection, 'late')).toBeNull();
      expect(await store.streamRevisionOf(projection, 1, 'split-1')).toBe(3);
    });

    it('refuses a batch read after a checkpoint that another runner has since passed, writing nothing', async () => {
      const { projection, collection } = await registered();
      const batch = (after: number | null, checkpoint: number, id: string) =>
        store.commitProjection({ projection, generation: 1, checkpoint, after, streamRevisions: { [`s-${id}`]: 0 }, writes: [put(collection, { id })] });
      expect(await batch(null, 10, 'first')).toBe('committed');
      // A runner that took the lease over committed up to 20 ...
      expect(await batch(10, 20, 'taken-over')).toBe('committed');
      // ... so the old runner's batch read after 10 (ending at 30) is stale, though 30 is past 20.
      expect(await batch(10, 30, 'late')).toBe('stale');
      expect(await store.get(collection, 'late')).toBeNull();
      expect(await store.streamRevisionOf(projection, 1, 's-late')).toBeNull();
      expect(await store.checkpointOf(projection, 1)).toBe(20);
      expect(await batch(null, 40, 'from-scratch')).toBe('stale');
      expect(await batch(20, 40, 'next')).toBe('committed');
    });

    it('gets several documents by id in one call, in the order asked, null for the missing ones', async () => {
      const { projection, collection } = await registered();
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 1,
        streamRevisions: {},
        writes: ['a', 'b', 'c'].map((id) => ({ kind: 'put' as const, collection, doc: { id, n: id.charCodeAt(0) } })),
      });
      expect(await store.getMany(collection, ['c', 'missing', 'a', 'c'])).toEqual([{ id: 'c', n: 99 }, null, { id: 'a', n: 97 }, { id: 'c', n: 99 }]);
      expect(await store.getMany(collection, [])).toEqual([]);
      const many = Array.from({ length: 1200 }, (_, i) => (i % 3 === 0 ? 'b' : `none-${i}`));
      expect((await store.getMany(collection, many)).filter(Boolean)).toHaveLength(400);
    });

    it('finds by equality filter with sort, skip and limit, and counts', async () => {
      const { projection, collection } = await registered();
      const docs = Array.from({ length: 7 }, (_, i) => ({
        id: `d${i}`,
        owner: i % 2 === 0 ? 'even' : 'odd',
        createdAt: `2026-01-0${i + 1}`,
        active: i < 3,
        note: i === 0 ? null : 'x',
      }));
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 1,
        streamRevisions: {},
        writes: docs.map((doc) => ({ kind: 'put' as const, collection, doc })),
      });
      const evens = await store.find(collection, { filter: { owner: 'even' }, sort: [{ field: 'createdAt', direction: 'desc' }] });
      expect(evens.map((d) => d.id)).toEqual(['d6', 'd4', 'd2', 'd0']);
      const page = await store.find(collection, {
        filter: { owner: 'even' },
        sort: [{ field: 'createdAt', direction: 'desc' }],
        skip: 1,
        limit: 2,
      });
      expect(page.map((d) => d.id)).toEqual(['d4', 'd2']);
      expect(await store.count(collection, { owner: 'odd' })).toBe(3);
      expect(await store.count(collection)).toBe(7);
      expect((await store.find(collection, { filter: { active: true } })).map((d) => d.id).sort()).toEqual(['d0', 'd1', 'd2']);
      expect((await store.find(collection, { filter: { note: null } })).map((d) => d.id)).toEqual(['d0']);
    });

    // A cursor over a growing collection (balance transactions) pages by a range on a monotonic key.
    it('finds within range bounds on string and number fields, combined with the filter, sort and limit', async () => {
      const { projection, collection } = await registered();
      const docs = Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, owner: i % 2 === 0 ? 'even' : 'odd', key: `k${String(i).padStart(3, '0')}`, position: i * 10 }));
      const odd = { id: 'typed', owner: 'even', key: 5, position: 'x' };
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 1,
        streamRevisions: {},
        writes: [...docs, odd].map((doc) => ({ kind: 'put' as const, collection, doc })),
      });
      const ids = async (options: Parameters<DocumentStore['find']>[1]) => (await store.find(collection, options)).map((d) => d.id);
      expect(await ids({ filter: { owner: 'even' }, range: { key: { lt: 'k006' } }, sort: [{ field: 'key', direction: 'desc' }], limit: 2 })).toEqual(['r4', 'r2']);
      expect(await ids({ range: { position: { gte: 20, lte: 50 } }, sort: [{ field: 'position', direction: 'asc' }] })).toEqual(['r2', 'r3', 'r4', 'r5']);
      expect(await ids({ range: { position: { gt: 60 } } })).toEqual(['r7']);
      expect(await ids({ filter: { owner: 'odd' }, range: { key: { gte: 'k003' }, position: { lt: 70 } }, sort: [{ field: 'key', direction: 'asc' }] })).toEqual(['r3', 'r5']);
      // A bound of one type never matches a value of the other type.
      expect(await ids({ filter: { owner: 'even' }, range: { key: { lt: 'zzz' } }, sort: [{ field: 'key', direction: 'asc' }] })).toEqual(['r0', 'r2', 'r4', 'r6']);
      expect(await ids({ filter: { owner: 'even' }, range: { key: { lt: 100 } } })).toEqual(['typed']);
      // count takes the same bounds (issue 29: the merchant's orders between two dates, paged with a total).
      expect(await store.count(collection, { owner: 'odd' }, { key: { gte: 'k003' }, position: { lt: 70 } })).toBe(2);
      expect(await store.count(collection, undefined, { position: { gte: 20, lte: 50 } })).toBe(4);
    });

    // A list narrowed to several statuses (the bills' Open view: OPEN and PARTIALLY_PAID) is one query.
    it('finds and counts documents whose field is one of several values, with the filter, sort, skip and limit', async () => {
      const { projection, collection } = await registered();
      const statuses = ['OPEN', 'PAID', 'OVERDUE', 'PARTIALLY_PAID'];
      const docs = Array.from({ length: 8 }, (_, i) => ({ id: `s${i}`, owner: i < 6 ? 'a' : 'b', status: statuses[i % 4], due: 80 - i }));
      const odd = [
        { id: 'number', owner: 'a', status: 1, due: 1 },
        { id: 'missing', owner: 'a', due: 2 },
      ];
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 1,
        streamRevisions: {},
        writes: [...docs, ...odd].map((doc) => ({ kind: 'put' as const, collection, doc })),
      });
      const ids = async (options: Parameters<DocumentStore['find']>[1]) => (await store.find(collection, options)).map((d) => d.id);
      const open = { status: { oneOf: ['OPEN', 'PARTIALLY_PAID'] } };
      const byDue = [{ field: 'due', direction: 'asc' as const }];
      expect(await ids({ filter: { owner: 'a' }, range: open, sort: byDue })).toEqual(['s4', 's3', 's0']);
      expect(await ids({ filter: { owner: 'a' }, range: open, sort: byDue, skip: 1, limit: 1 })).toEqual(['s3']);
      expect(await ids({ range: { status: { oneOf: ['PAID'] }, due: { lt: 80 } }, sort: byDue })).toEqual(['s5', 's1']);
      expect(await store.count(collection, { owner: 'a' }, open)).toBe(3);
      expect(await store.count(collection, undefined, open)).toBe(4);
      // Of the same type only: the number 1 is not '1', a missing field matches nothing, an empty list matches nothing.
      expect(await ids({ range: { status: { oneOf: ['1', 2] } } })).toEqual([]);
      expect(await ids({ range: { status: { oneOf: [1] } } })).toEqual(['number']);
      expect(await store.count(collection, undefined, { status: { oneOf: [] } })).toBe(0);
    });

    // Issue 31 (books CSV): a sort on a field the collection declares unique needs no id tiebreak, which made
    // SQLite sort every page of lines again. The store keeps the declaration true, so no order can tie.
    it('sorts by a unique field alone and refuses writes that would duplicate it or leave it out', async () => {
      const projection = unique('p');
      const collection = unique('c');
      await store.registerProjection(projection, [{ name: collection, indexes: [['owner', 'key']], unique: ['key'] }]);
      // Ids run against keys, and `rank` against both: only the key can give this order.
      const docs = ['k1', 'k2', 'k3', 'k4'].map((key, i) => ({ id: `d${4 - i}`, owner: 'o', key, rank: i % 2 }));
      expect(await store.commitProjection({ projection, generation: 1, checkpoint: 1, streamRevisions: {}, writes: docs.map((doc) => put(collection, doc)) })).toBe('committed');
      const ids = async (options: Parameters<DocumentStore['find']>[1]) => (await store.find(collection, options)).map((d) => d.id);
      const byKeyThenRank = [
        { field: 'key', direction: 'desc' as const },
        { field: 'rank', direction: 'asc' as const },
      ];
      expect(await ids({ filter: { owner: 'o' }, sort: byKeyThenRank })).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect(await ids({ filter: { owner: 'o' }, range: { key: { lt: 'k3' } }, sort: [{ field: 'key', direction: 'asc' }], limit: 1 })).toEqual(['d4']);
      // A sort that starts with another field still ties on it and is decided by the key after it.
      expect(await ids({ sort: [{ field: 'rank', direction: 'asc' }, ...byKeyThenRank] })).toEqual(['d2', 'd4', 'd1', 'd3']);

      // By message, not toThrow: better-sqlite3's errors may come from another spec file's realm (not `instanceof Error` here).
      const refused = async (doc: { id: string; owner?: string; key?: string | null }, generation = 1) =>
        expect(store.commitProjection({ projection, generation, checkpoint: 2, streamRevisions: {}, writes: [put(collection, doc)] })).rejects.toHaveProperty('message');
      await refused({ id: 'same-key', owner: 'o', key: 'k2' });
      await refused({ id: 'no-key', owner: 'o' });
      await refused({ id: 'null-key', owner: 'o', key: null });
      expect(await store.checkpointOf(projection, 1)).toBe(1);
      expect(await store.getMany(collection, ['same-key', 'no-key', 'null-key'])).toEqual([null, null, null]);
      // Rewriting a document with its own key is no duplicate; a rebuild's generation keeps the rule too.
      expect(await store.commitProjection({ projection, generation: 1, checkpoint: 2, streamRevisions: {}, writes: [put(collection, { ...docs[0]!, rank: 7 })] })).toBe(
        'committed',
      );
      const shadow = await store.createShadowGeneration(projection);
      await store.commitProjection({ projection, generation: shadow, checkpoint: 1, streamRevisions: {}, writes: [put(collection, docs[0]!)] });
      await refused({ id: 'shadow-twin', key: 'k1' }, shadow);
    });

    it('declares a field unique on documents written before: refused at registration if they break the rule', async () => {
      const register = async (projection: string, collection: string, declared: boolean) =>
        store.registerProjection(projection, [{ name: collection, indexes: [['key']], ...(declared ? { unique: ['key'] } : {}) }]);
      const written = async (docs: { id: string; key?: string }[]) => {
        const projection = unique('p');
        const collection = unique('c');
        await register(projection, collection, false);
        await store.commitProjection({ projection, generation: 1, checkpoint: 1, streamRevisions: {}, writes: docs.map((doc) => put(collection, doc)) });
        return { projection, collection };
      };
      const fine = await written([
        { id: 'a', key: 'k1' },
        { id: 'b', key: 'k2' },
      ]);
      await register(fine.projection, fine.collection, true);
      expect((await store.find(fine.collection, { sort: [{ field: 'key', direction: 'desc' }] })).map((d) => d.id)).toEqual(['b', 'a']);
      await expect(
        store.commitProjection({ projection: fine.projection, generation: 1, checkpoint: 2, streamRevisions: {}, writes: [put(fine.collection, { id: 'c', key: 'k1' })] }),
      ).rejects.toHaveProperty('message');

      const twins = await written([
        { id: 'a', key: 'k1' },
        { id: 'b', key: 'k1' },
      ]);
      await expect(register(twins.projection, twins.collection, true)).rejects.toHaveProperty('message');
      const keyless = await written([{ id: 'a', key: 'k1' }, { id: 'b' }]);
      await expect(register(keyless.projection, keyless.collection, true)).rejects.toHaveProperty('message');
    });

    // Read models add optional fields (e.g. a user's releasedAt, an order's unlisted) and filter on null
    // for "not set": documents written before the field existed must match.
    it('matches a null filter on a document that lacks the field', async () => {
      const { projection, collection } = await registered();
      const docs = [{ id: 'old' }, { id: 'set', mark: true }, { id: 'nulled', mark: null }];
      await store.commitProjection({ projection, generation: 1, checkpoint: 1, streamRevisions: {}, writes: docs.map((doc) => ({ kind: 'put' as const, collection, doc })) });
      expect((await store.find(collection, { filter: { mark: null } })).map((d) => d.id).sort()).toEqual(['nulled', 'old']);
      expect(await store.count(collection, { mark: null })).toBe(2);
    });

    it('rebuilds into a shadow generation while the active one keeps serving, then swaps', async () => {
      const { projection, collection } = await registered();
      await store.commitProjection({
        projection,
        generation: 1,
        checkpoint: 5,
        streamRevisions: { s: 0 },
        writes: [put(collection, { id: 'old', owner: 'o' })],
      });
      const shadow = await store.createShadowGeneration(projection);
      expect(shadow).toBe(2);
      expect(await store.checkpointOf(projection, shadow)).toBeNull();
      expect(await store.generationReader(projection, shadow).get(collection, 'old')).toBeNull();
      await store.commitProjection({
        projection,
        generation: shadow,
        checkpoint: 5,
        streamRevisions: { s: 0 },
        writes: [put(collection, { id: 'new', owner: 'o' })],
      });
      expect(await store.get(collection, 'old')).not.toBeNull();
      expect(await store.get(collection, 'new')).toBeNull();
      await store.activateGeneration(projection, shadow);
      expect(await store.get(collection, 'new')).not.toBeNull();
      expect(await store.get(collection, 'old')).toBeNull();
      expect((await store.projectionState(projection)).activeGeneration).toBe(shadow);
      const late = await store.commitProjection({ projection, generation: 1, checkpoint: 6, streamRevisions: {}, writes: [] });
      expect(late).toBe('retired');
    });

    it('discards the shadow generations an interrupted rebuild left, keeping the active one', async () => {
      const { projection, collection } = await registered();
      await store.commitProjection({ projection, generation: 1, checkpoint: 3, streamRevisions: {}, writes: [put(collection, { id: 'kept', owner: 'o' })] });
      const left = [await store.createShadowGeneration(projection), await store.createShadowGeneration(projection)];
      await store.commitProjection({ projection, generation: left[0]!, checkpoint: 2, streamRevisions: { s: 0 }, writes: [put(collection, { id: 'half', owner: 'o' })] });
      expect((await store.discardShadowGenerations(projection)).sort()).toEqual([...left].sort());
      expect(await store.discardShadowGenerations(projection)).toEqual([]);
      for (const shadow of left) expect(await store.commitProjection({ projection, generation: shadow, checkpoint: 9, streamRevisions: {}, writes: [] })).toBe('retired');
      expect(await store.get(collection, 'kept')).not.toBeNull();
      expect((await store.projectionState(projection)).activeGeneration).toBe(1);
      const next = await store.createShadowGeneration(projection);
      expect(left).not.toContain(next);
      await store.activateGeneration(projection, next);
      expect((await store.projectionState(projection)).activeGeneration).toBe(next);
    });

    it('reads the states of several projections at once, in the order asked, and refuses an unknown one', async () => {
      const first = await registered();
      const second = await registered();
      await store.commitProjection({ projection: first.projection, generation: 1, checkpoint: 7, streamRevisions: {}, writes: [] });
      await store.setProjectionError(second.projection, 'gap in stream t');
      const shadow = await store.createShadowGeneration(second.projection, 2);
      await store.commitProjection({ projection: second.projection, generation: shadow, checkpoint: 4, streamRevisions: {}, writes: [] });
      await store.activateGeneration(second.projection, shadow);
      await store.setProjectionError(second.projection, 'gap in stream u');
      const states = await store.projectionStates([second.projection, first.projection, second.projection]);
      expect(states).toEqual([await store.projectionState(second.projection), await store.projectionState(first.projection), await store.projectionState(second.projection)]);
      expect(states[0]).toMatchObject({ activeGeneration: shadow, checkpoint: 4, version: 2, status: 'stalled', error: 'gap in stream u' });
      expect(states[1]).toMatchObject({ activeGeneration: 1, checkpoint: 7, version: 1, status: 'running', error: null });
      expect(await store.projectionStates([])).toEqual([]);
      await expect(store.projectionStates([first.projection, 'no_such_projection'])).rejects.toThrow('no_such_projection');
    });

    it('reports a stalled projection and clears it', async () => {
      const { projection } = await registered();
      await store.setProjectionError(projection, 'gap in stream s');
      expect(await store.projectionState(projection)).toMatchObject({ status: 'stalled', error: 'gap in stream s' });
      await store.setProjectionError(projection, null);
      expect(await store.projectionState(projection)).toMatchObject({ status: 'running', error: null });
    });
  });
}
