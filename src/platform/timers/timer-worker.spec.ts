import { join } from 'node:path';
import { tempDir } from '../../../test/support/temp-dir';
import { timerWorkerAt } from '../../../test/support/timer-worker';
import { TimerStore } from '../read-store/timer-store.port';
import { SqliteReadStore } from '../read-store/sqlite/sqlite-read-store';

describe('TimerWorker purges', () => {
  it('runs every added purge in batches until one comes back short, even after another purge failed', async () => {
    const store = new SqliteReadStore(join(tempDir('purges'), 'read.db'));
    const timers = timerWorkerAt(store, 1_000_000);
    const calls: [number, number][] = [];
    let left = 4_500;
    timers.addPurge('broken things', async () => {
      throw new Error('boom');
    });
    timers.addPurge('old things', async (realNowMs, limit) => {
      calls.push([realNowMs, limit]);
      const deleted = Math.min(left, limit);
      left -= deleted;
      return deleted;
    });
    await timers.purge();
    expect(calls).toEqual([
      [1_000_000, 2_000],
      [1_000_000, 2_000],
      [1_000_000, 2_000],
    ]);
    expect(left).toBe(0);
    await store.close();
  });

  it('ends a pass after the current batch once stop() is called', async () => {
    const store = new SqliteReadStore(join(tempDir('purges'), 'read.db'));
    const timers = timerWorkerAt(store, 1_000_000);
    let batches = 0;
    let stopping = null as Promise<void> | null;
    timers.addPurge('endless things', async (_now, limit) => {
      batches += 1;
      stopping ??= timers.stop();
      return limit;
    });
    timers.addPurge('other things', async () => {
      throw new Error('must not run after stop()');
    });
    timers.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await stopping;
    expect(batches).toBe(1);
    await store.close();
  });

  it('refuses a second purge of the same thing', () => {
    const timers = timerWorkerAt({} as TimerStore, 0);
    timers.addPurge('old things', async () => 0);
    expect(() => timers.addPurge('old things', async () => 0)).toThrow('already registered');
  });
});
