import { WakeableLoop } from './wakeable-loop';

const HOUR = 3_600_000;

/** Resolves once `count` passes have run (or fails the test by timing out). */
function countingPasses(failFirst = false) {
  let runs = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const pass = async () => {
    runs++;
    waiters.filter((w) => runs >= w.count).forEach((w) => w.resolve());
    if (failFirst && runs === 1) throw new Error('first pass fails');
  };
  const reached = (count: number) => new Promise<void>((resolve) => (runs >= count ? resolve() : waiters.push({ count, resolve })));
  return { pass, reached, runs: () => runs };
}

describe('WakeableLoop', () => {
  it('runs a pass at start and another as soon as it is poked, long before its poll interval', async () => {
    const passes = countingPasses();
    const loop = new WakeableLoop(passes.pass, { pollIntervalMs: HOUR, onPassFailed: () => {} });
    loop.start();
    await passes.reached(1);
    loop.poke();
    await passes.reached(2);
    await loop.stop();
    expect(passes.runs()).toBe(2);
  });

  it('reports a failing pass and goes on with the next one', async () => {
    const passes = countingPasses(true);
    const failures: unknown[] = [];
    const loop = new WakeableLoop(passes.pass, { pollIntervalMs: 1, onPassFailed: (error) => failures.push(error) });
    loop.start();
    await passes.reached(3);
    await loop.stop();
    expect(failures).toEqual([new Error('first pass fails')]);
  });

  it('stops without waiting a poll interval, and says it is stopping while the last pass ends', async () => {
    let release!: () => void;
    let seenStopping = false;
    const loop: WakeableLoop = new WakeableLoop(
      async () => {
        await new Promise<void>((resolve) => (release = resolve));
        seenStopping = loop.stopping;
      },
      { pollIntervalMs: HOUR, onPassFailed: () => {} },
    );
    loop.start();
    expect(loop.running).toBe(true);
    const stopped = loop.stop();
    expect(loop.running).toBe(false);
    release();
    await stopped;
    expect(seenStopping).toBe(true);
    expect(loop.stopping).toBe(false);
  });
});
