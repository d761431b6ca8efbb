import { OPERATIONAL_LIST_INDEX, indexServes, positive, toQuery, toSort } from './mongo-queries';

describe('MongoDB read store: query building', () => {
  it('builds equality filters on top-level fields, null included, and refuses other field names', () => {
    expect(toQuery({ owner: 'co_1', active: true, n: 2, gone: null })).toEqual({ owner: 'co_1', active: true, n: 2, gone: null });
    expect(toQuery()).toEqual({});
    expect(() => toQuery({ 'a.b': 1 })).toThrow();
    expect(() => toQuery({ $where: 1 })).toThrow();
  });

  it('adds range bounds with a type check, beside or on top of an equality', () => {
    expect(toQuery({ owner: 'co_1' }, { key: { lt: 'k9', gte: 'k1' } })).toEqual({ owner: 'co_1', key: { $lt: 'k9', $gte: 'k1', $type: 'string' } });
    expect(toQuery({}, { position: { gt: 10 } })).toEqual({ position: { $gt: 10, $type: 'number' } });
    expect(toQuery({ n: 3 }, { n: { lte: 5 } })).toEqual({ n: { $eq: 3, $lte: 5, $type: 'number' } });
    expect(() => toQuery({}, { $where: { lt: 1 } })).toThrow();
  });

  it('asks for one of several values with $in, beside bounds or an equality', () => {
    expect(toQuery({ owner: 'co_1' }, { status: { oneOf: ['OPEN', 'PARTIALLY_PAID'] } })).toEqual({ owner: 'co_1', status: { $in: ['OPEN', 'PARTIALLY_PAID'] } });
    expect(toQuery({}, { due: { lt: 9, oneOf: [1, 2] } })).toEqual({ due: { $lt: 9, $type: 'number', $in: [1, 2] } });
    expect(toQuery({}, { status: { oneOf: [] } })).toEqual({ status: { $in: [] } });
  });

  it('sorts by the requested fields, first direction wins, then by _id', () => {
    expect(
      toSort([
        { field: 'createdAt', direction: 'desc' },
        { field: 'owner', direction: 'asc' },
        { field: 'createdAt', direction: 'asc' },
      ]),
    ).toEqual([
      ['createdAt', -1],
      ['owner', 1],
      ['_id', 1],
    ]);
    expect(toSort()).toEqual([['_id', 1]]);
  });

  it('sorts by a unique field with no _id tiebreak, and drops the fields after it (they never decide)', () => {
    const unique = new Set(['key']);
    expect(toSort([{ field: 'key', direction: 'desc' }], unique)).toEqual([['key', -1]]);
    expect(
      toSort(
        [
          { field: 'rank', direction: 'asc' },
          { field: 'key', direction: 'desc' },
          { field: 'postedAt', direction: 'asc' },
        ],
        unique,
      ),
    ).toEqual([
      ['rank', 1],
      ['key', -1],
    ]);
    expect(toSort([{ field: 'postedAt', direction: 'asc' }], unique)).toEqual([
      ['postedAt', 1],
      ['_id', 1],
    ]);
    // The ledger lines' page (equality on owner, newest first) is then served by their { owner, key } index.
    expect(indexServes({ owner: 1, key: 1 }, { equality: ['owner'], sort: toSort([{ field: 'key', direction: 'desc' }], unique) })).toBe(true);
    expect(indexServes({ owner: 1, key: 1 }, { equality: ['owner'], sort: toSort([{ field: 'key', direction: 'desc' }]) })).toBe(false);
  });

  it('treats limits and skips that are not positive as none, as SQLite does', () => {
    expect(positive(undefined)).toBeUndefined();
    expect(positive(0)).toBeUndefined();
    expect(positive(-1)).toBeUndefined();
    expect(positive(5)).toBe(5);
  });
});

describe('MongoDB read store: indexes', () => {
  const listOperational = { equality: ['_id.collection'], sort: [['_id.id', 1]] as [string, 1][] };

  it('has an index that serves listOperational (equality on the collection, sorted by id)', () => {
    expect(indexServes(OPERATIONAL_LIST_INDEX, listOperational)).toBe(true);
    // The index the store had before: it serves the purge, not this sort.
    expect(indexServes({ '_id.collection': 1, 'body.expiresAt': 1 }, listOperational)).toBe(false);
  });

  it('tells which indexes serve an equality-then-sort query', () => {
    expect(indexServes({ status: 1, dueAt: 1 }, { equality: ['status'], sort: [['dueAt', 1]] })).toBe(true);
    expect(indexServes({ status: 1, dueAt: 1 }, { equality: ['status'], sort: [['dueAt', -1]] })).toBe(true);
    expect(indexServes({ status: 1, dueAt: 1 }, { equality: [], sort: [['dueAt', 1]] })).toBe(false);
    expect(indexServes({ a: 1, b: 1, c: 1 }, { equality: ['b', 'a'], sort: [['c', 1]] })).toBe(true);
    expect(
      indexServes(
        { a: 1, b: 1, c: -1 },
        {
          equality: ['a'],
          sort: [
            ['b', 1],
            ['c', 1],
          ],
        },
      ),
    ).toBe(false);
    expect(indexServes({ a: 1 }, { equality: ['a'], sort: [['b', 1]] })).toBe(false);
  });
});
