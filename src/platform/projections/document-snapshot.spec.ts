import { sameSnapshot, snapshotOf, thaw } from './document-snapshot';

describe('document snapshots', () => {
  it('mean what the JSON text means, frozen all the way down', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const doc = { id: 'a', at, gone: undefined, nan: Number.NaN, list: [1, undefined, { x: 'y' }], nested: { n: -0 } };
    const snapshot = snapshotOf(doc);
    expect(snapshot).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(Object.keys(snapshot)).toEqual(Object.keys(JSON.parse(JSON.stringify(doc)) as object));
    expect(Object.isFrozen(snapshot) && Object.isFrozen(snapshot.list) && Object.isFrozen(snapshot.list[2]) && Object.isFrozen(snapshot.nested)).toBe(true);
    expect(() => snapshotOf({ id: 'b', amount: 1n })).toThrow(TypeError);
  });

  it('keep a field named __proto__ as a field, as JSON.parse made it', () => {
    const parsed = JSON.parse('{"id":"a","__proto__":{"polluted":true}}') as object;
    const snapshot = snapshotOf(parsed);
    expect(JSON.stringify(snapshot)).toBe(JSON.stringify(parsed));
    expect(JSON.stringify(thaw(snapshot))).toBe(JSON.stringify(parsed));
    expect((snapshot as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('are copies: later changes to the object put do not reach them', () => {
    const doc = { id: 'a', rows: [{ status: 'PENDING' }] };
    const snapshot = snapshotOf(doc);
    doc.rows[0]!.status = 'COMPLETED';
    doc.rows.push({ status: 'NEW' });
    expect(snapshot).toEqual({ id: 'a', rows: [{ status: 'PENDING' }] });
  });

  it('share the parts that are snapshots already', () => {
    const first = snapshotOf({ id: 'a', rows: [{ n: 1 }, { n: 2 }], status: 'OPEN' });
    const next = snapshotOf({ ...first, status: 'CLOSED', rows: first.rows.map((row) => (row.n === 2 ? { ...row, n: 3 } : row)) });
    expect(next.rows[0]).toBe(first.rows[0]);
    expect(next.rows[1]).toEqual({ n: 3 });
    expect(snapshotOf(first)).toBe(first);
  });

  it('are the same when they hold the same JSON value, whatever the order of their fields', () => {
    const doc = { id: 'a', rows: [{ n: 1, note: null }], flags: { on: true } };
    expect(sameSnapshot(snapshotOf(doc), snapshotOf({ flags: { on: true }, rows: [{ note: null, n: 1 }], id: 'a' }))).toBe(true);
    expect(sameSnapshot(snapshotOf(doc), snapshotOf({ ...doc, extra: undefined }))).toBe(true);
    for (const other of [
      { ...doc, rows: [{ n: 1 }] },
      {
        ...doc,
        rows: [
          { n: 1, note: null },
          { n: 2, note: null },
        ],
      },
      { ...doc, rows: [{ n: '1', note: null }] },
      { ...doc, flags: { on: false } },
      { ...doc, flags: [true] },
      { ...doc, extra: null },
    ]) {
      expect(sameSnapshot(snapshotOf<object>(doc), snapshotOf<object>(other))).toBe(false);
    }
  });

  it('thaw into a changeable copy', () => {
    const snapshot = snapshotOf({ id: 'a', rows: [{ n: 1 }] });
    const copy = thaw<{ id: string; rows: { n: number }[] }>(snapshot);
    copy.rows[0]!.n = 2;
    expect(snapshot.rows[0]!.n).toBe(1);
  });
});
