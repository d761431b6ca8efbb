import { everyRow } from './list-export';

describe('everyRow: every row of an offset-paged, newest-first list, each once', () => {
  const collect = async <T>(rows: AsyncIterable<T>) => {
    const out: T[] = [];
    for await (const row of rows) out.push(row);
    return out;
  };

  it('reads page after page until a short one', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => ({ id: `r${7 - i}` }));
    const asked: number[] = [];
    const rows = await collect(everyRow(async (page, limit) => (asked.push(page), ids.slice((page - 1) * limit, page * limit)), 3));
    expect(rows.map((r) => r.id)).toEqual(['r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('a row that arrives during the walk pushes the others down: the repeated one is skipped, none is lost', async () => {
    const list = [{ id: 'r4' }, { id: 'r3' }, { id: 'r2' }, { id: 'r1' }];
    const rows = await collect(
      everyRow(async (page, limit) => {
        const slice = list.slice((page - 1) * limit, page * limit);
        if (page === 1) list.unshift({ id: 'r5' }); // newest first: it lands on top, after the first page was read
        return slice;
      }, 2),
    );
    expect(rows.map((r) => r.id)).toEqual(['r4', 'r3', 'r2', 'r1']);
  });
});
