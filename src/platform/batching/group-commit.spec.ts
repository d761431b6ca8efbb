import { GroupCommit } from './group-commit';

const turn = () => new Promise((r) => setImmediate(r));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GroupCommit', () => {
  it('commits the writes of one turn as one batch, each caller getting its own result', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      return items.map((n) => n * 10);
    });
    const results = await Promise.all([1, 2, 3].map((n) => group.add(n)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('with an interval: commits at once when idle, then a busy writer at most once per interval, in a bigger batch', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, void>(
      async (items) => {
        batches.push(items);
        return items.map(() => undefined);
      },
      100,
      50,
    );
    const first = group.add(1);
    await turn();
    expect(batches).toEqual([[1]]);
    await first;
    const later = [group.add(2)];
    await turn();
    later.push(group.add(3));
    await sleep(10);
    expect(batches).toEqual([[1]]);
    await Promise.all(later);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('with an interval: a full batch is committed at once', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, void>(
      async (items) => {
        batches.push(items);
        return items.map(() => undefined);
      },
      2,
      1_000,
    );
    await group.add(1);
    const started = Date.now();
    await Promise.all([group.add(2), group.add(3)]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
