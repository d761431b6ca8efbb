import { performance } from 'node:perf_hooks';
import { openLoop } from '../../bench/open-loop';

describe('openLoop (the mixed bench offers its rate with it)', () => {
  it('never answers a negative latency, though slots under a millisecond apart go out early', async () => {
    const latencies = await openLoop(5_000, 0.2, async () => true);
    expect(latencies).toHaveLength(1_000);
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(0);
  });

  it('times a request that went out late from its scheduled time (no coordinated omission)', async () => {
    const blockedMs = 30;
    let first = true;
    const latencies = await openLoop(1_000, 0.01, async () => {
      if (!first) return;
      first = false;
      const until = performance.now() + blockedMs; // the loop is stuck: the next nine slots pass meanwhile
      while (performance.now() < until);
    });
    expect(latencies).toHaveLength(10);
    expect(Math.max(...latencies.slice(1))).toBeGreaterThanOrEqual(blockedMs - 10);
  });
});
