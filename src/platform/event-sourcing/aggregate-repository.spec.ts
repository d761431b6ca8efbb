import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { Decider } from '../domain/decider';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { AggregateRepository } from './aggregate-repository';
import { CommandMetadata } from '../domain/command';
import { commandMetadata } from './command-metadata';

type CounterEvent = { type: 'added'; data: { amount: number } };
/** An addition, decided at the test clock's time (the repository requires every command's metadata). */
type Add = { amount: number; metadata: CommandMetadata };
const counter: Decider<Add, CounterEvent, { total: number; count: number }> = {
  initialState: () => ({ total: 0, count: 0 }),
  decide: (command) => [{ type: 'added', data: { amount: command.amount } }],
  evolve: (state, event) => ({ total: state.total + event.data.amount, count: state.count + 1 }),
};
/** Another decider over the same stream: a cached state of `counter` must never be handed to it. */
const amounts: Decider<never, CounterEvent, number[]> = {
  initialState: () => [],
  decide: () => [],
  evolve: (state, event) => [...state, event.data.amount],
};
/** A counter that refuses a fourth addition and decides nothing for zero: decisions a stale state could get wrong. */
const capped: Decider<Add, CounterEvent, { total: number; count: number }> = {
  initialState: counter.initialState,
  decide: (command, state) => {
    if (state.count >= 3) throw new Error('capped at three additions');
    return command.amount === 0 ? [] : [{ type: 'added', data: { amount: command.amount } }];
  },
  evolve: counter.evolve,
};
const clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };
const context = { actor: 'test', correlationId: 'c' };
const add = (amount: number): Add => ({ amount, metadata: commandMetadata(clock, context) });

describe('AggregateRepository folded-state cache', () => {
  let dir: string;
  let store: SqliteEventStore;
  let other: SqliteEventStore;
  beforeEach(() => {
    dir = tempDir('aggregate-cache');
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
    // The same file opened a second time: another process (an api beside a worker) appending.
    other = new SqliteEventStore(join(dir, 'events.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('folds events appended elsewhere after a cached load onto the cached state, and reads only those', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    const elsewhere = new AggregateRepository(other, clock, new MetricsRegistry());
    await repository.handle('counter-1', counter, add(2), context);
    expect((await repository.load('counter-1', counter)).state).toEqual({ total: 2, count: 1 });

    await elsewhere.handle('counter-1', counter, add(5), context);
    await elsewhere.handle('counter-1', counter, add(7), context);
    const read = jest.spyOn(store, 'readStream');
    const loaded = await repository.load('counter-1', counter);
    expect(loaded.state).toEqual({ total: 14, count: 3 });
    expect(loaded.revision).toBe(2);
    expect(read).toHaveBeenCalledWith('counter-1', { fromRevision: 1 });
  });

  it('gives each decider its own fold of the stream', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    await repository.handle('counter-2', counter, add(3), context);
    await repository.handle('counter-2', counter, add(4), context);
    expect((await repository.load('counter-2', counter)).state).toEqual({ total: 7, count: 2 });
    expect((await repository.load('counter-2', amounts)).state).toEqual([3, 4]);
    expect((await repository.load('counter-2', counter)).state).toEqual({ total: 7, count: 2 });
  });

  it('answers the initial state, revision null, for a stream that does not exist', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    expect(await repository.load('counter-none', counter)).toEqual({ state: { total: 0, count: 0 }, revision: null, position: null });
  });

  it('decides a command on the state it cached, without reading the stream, when nothing appended since', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    await repository.handle('counter-3', counter, add(1), context);
    const read = jest.spyOn(store, 'readStream');
    const decided = await repository.handle('counter-3', counter, add(2), context);
    expect(read).not.toHaveBeenCalled();
    expect(decided).toMatchObject({ state: { total: 3, count: 2 }, revision: 1 });
    expect((await other.readStream('counter-3')).map((e) => e.data)).toEqual([{ amount: 1 }, { amount: 2 }]);
  });

  it('decides again on a fresh read when the stream moved on since the state was cached', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    const elsewhere = new AggregateRepository(other, clock, new MetricsRegistry());
    await repository.handle('counter-4', capped, add(1), context);
    await repository.handle('counter-4', capped, add(2), context);
    await elsewhere.handle('counter-4', capped, add(5), context);
    // Cached: two additions, so the cap allows this one; the stream holds three, so it must be refused.
    await expect(repository.handle('counter-4', capped, add(7), context)).rejects.toThrow('capped at three additions');
    expect((await other.readStream('counter-4')).map((e) => e.data)).toEqual([{ amount: 1 }, { amount: 2 }, { amount: 5 }]);
  });

  it('does not trust a refusal or a decision of nothing made on the cached state', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    const elsewhere = new AggregateRepository(other, clock, new MetricsRegistry());
    await repository.handle('counter-5', capped, add(1), context);
    await elsewhere.handle('counter-5', capped, add(2), context);
    const nothing = await repository.handle('counter-5', capped, add(0), context);
    // The answer of a no-op is the stream as it is now (its position is what a read-your-writes waits for).
    expect(nothing).toMatchObject({ events: [], state: { total: 3, count: 2 }, revision: 1 });
  });

  it('retries on the fresh state when a concurrent command of this process appended first', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    await repository.handle('counter-6', counter, add(1), context);
    await Promise.all([repository.handle('counter-6', counter, add(2), context), repository.handle('counter-6', counter, add(3), context)]);
    expect((await repository.load('counter-6', counter)).state).toEqual({ total: 6, count: 3 });
    expect((await other.readStream('counter-6')).map((e) => e.revision)).toEqual([0, 1, 2]);
  });

  it('decides several commands in order on the state each leads to and appends their events together, each at its own time', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    const appends = jest.spyOn(store, 'append');
    const at = (now: string, amount: number): Add => ({ amount, metadata: { now, actor: 'test' } });
    const decided = await repository.handleAll(
      'counter-7',
      capped,
      [at('2026-02-01T00:00:00.000Z', 1), at('2026-02-02T00:00:00.000Z', 0), at('2026-02-03T00:00:00.000Z', 4)],
      context,
    );
    expect(decided).toMatchObject({ state: { total: 5, count: 2 }, revision: 1 });
    const stored = await other.readStream('counter-7');
    expect(stored.map((e) => [e.data, e.metadata.occurredAt])).toEqual([
      [{ amount: 1 }, '2026-02-01T00:00:00.000Z'],
      [{ amount: 4 }, '2026-02-03T00:00:00.000Z'],
    ]);
    expect(appends).toHaveBeenCalledTimes(1);

    // The third command of these is refused (the cap counts the two before it): nothing is appended.
    await expect(repository.handleAll('counter-7', capped, [add(1), add(1)], context)).rejects.toThrow('capped at three additions');
    expect(await other.readStream('counter-7')).toHaveLength(2);
  });

  it('runs beforeAppend with the state decided on and the events decided, appends nothing when it throws, and runs it again for a decision that lost a race', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    await repository.handle('counter-8', counter, add(1), context);
    const seen: { total: number; amounts: number[] }[] = [];
    await expect(
      repository.handle('counter-8', counter, add(2), context, {
        beforeAppend: async ({ state, events }) => {
          seen.push({ total: state.total, amounts: events.map((e) => e.data.amount) });
          throw new Error('short of money');
        },
      }),
    ).rejects.toThrow('short of money');
    expect(seen).toEqual([{ total: 1, amounts: [2] }]);
    expect((await other.readStream('counter-8')).map((e) => e.data)).toEqual([{ amount: 1 }]);

    // Another process appends between the decision and its append: decided again on the fresh state, beforeAppend again.
    seen.length = 0;
    let raced = false;
    await repository.handle('counter-8', counter, add(3), context, {
      beforeAppend: async ({ state, events }) => {
        seen.push({ total: state.total, amounts: events.map((e) => e.data.amount) });
        if (!raced) {
          raced = true;
          await new AggregateRepository(other, clock, new MetricsRegistry()).handle('counter-8', counter, add(10), context);
        }
      },
    });
    expect(seen).toEqual([
      { total: 1, amounts: [3] },
      { total: 11, amounts: [3] },
    ]);
    expect((await other.readStream('counter-8')).map((e) => e.data)).toEqual([{ amount: 1 }, { amount: 10 }, { amount: 3 }]);
  });

  it('runs beforeAppend of a create before appending to the new stream', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    const order: string[] = [];
    const append = jest.spyOn(store, 'append');
    await repository.create('counter-9', counter, add(4), context, {
      beforeAppend: async ({ events }) => {
        order.push(`before ${events.length}`);
        expect(append).not.toHaveBeenCalled();
      },
    });
    expect(order).toEqual(['before 1']);
    expect((await other.readStream('counter-9')).map((e) => e.data)).toEqual([{ amount: 4 }]);
  });

  it('compiles only commands that carry metadata (checked by tsc: the @ts-expect-error lines fail the build if they compile)', () => {
    const unstamped: Decider<{ amount: number }, CounterEvent, { total: number; count: number }> = {
      ...counter,
      decide: (command) => [{ type: 'added', data: { amount: command.amount } }],
    };
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    const typeChecksOnly = () => {
      // @ts-expect-error a command without metadata: its time would be guessed
      void repository.handle('counter-x', unstamped, { amount: 1 }, context);
      // @ts-expect-error the same for a new stream
      void repository.create('counter-x', unstamped, { amount: 1 }, context);
    };
    expect(typeof typeChecksOnly).toBe('function');
  });

  it("stamps each event's occurredAt with its command's metadata.now (commandMetadata), not a second clock reading", async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    const later = { now: () => new Date('2026-03-04T05:06:07.000Z') };
    await repository.handle('counter-10', counter, { amount: 1, metadata: commandMetadata(later, context) }, context);
    await repository.create('counter-11', counter, { amount: 2, metadata: { now: '2026-03-05T00:00:00.000Z', actor: 'test' } }, context);
    expect((await other.readStream('counter-10'))[0]!.metadata.occurredAt).toBe('2026-03-04T05:06:07.000Z');
    expect((await other.readStream('counter-11'))[0]!.metadata.occurredAt).toBe('2026-03-05T00:00:00.000Z');
    expect(commandMetadata(later, context)).toEqual({ now: '2026-03-04T05:06:07.000Z', actor: 'test' });
  });
});
