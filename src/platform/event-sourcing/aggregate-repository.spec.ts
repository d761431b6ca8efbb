import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { Decider } from '../domain/decider';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { AggregateRepository } from './aggregate-repository';

type CounterEvent = { type: 'added'; data: { amount: number } };
const counter: Decider<{ amount: number }, CounterEvent, { total: number; count: number }> = {
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
const clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };
const context = { actor: 'test', correlationId: 'c' };

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
    await repository.handle('counter-1', counter, { amount: 2 }, context);
    expect((await repository.load('counter-1', counter)).state).toEqual({ total: 2, count: 1 });

    await elsewhere.handle('counter-1', counter, { amount: 5 }, context);
    await elsewhere.handle('counter-1', counter, { amount: 7 }, context);
    const read = jest.spyOn(store, 'readStream');
    const loaded = await repository.load('counter-1', counter);
    expect(loaded.state).toEqual({ total: 14, count: 3 });
    expect(loaded.revision).toBe(2);
    expect(read).toHaveBeenCalledWith('counter-1', { fromRevision: 1 });
  });

  it('gives each decider its own fold of the stream', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    await repository.handle('counter-2', counter, { amount: 3 }, context);
    await repository.handle('counter-2', counter, { amount: 4 }, context);
    expect((await repository.load('counter-2', counter)).state).toEqual({ total: 7, count: 2 });
    expect((await repository.load('counter-2', amounts)).state).toEqual([3, 4]);
    expect((await repository.load('counter-2', counter)).state).toEqual({ total: 7, count: 2 });
  });

  it('answers the initial state, revision null, for a stream that does not exist', async () => {
    const repository = new AggregateRepository(store, clock, new MetricsRegistry());
    expect(await repository.load('counter-none', counter)).toEqual({ state: { total: 0, count: 0 }, revision: null, position: null });
  });
});
