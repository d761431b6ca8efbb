import { startTestApp, TestApp } from '../support/test-app';

describe('sandbox clock and durable timers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('fires every timer due by the new time, each at its own due time, before answering', async () => {
    const fired: { id: string; at: string }[] = [];
    app.platform.timers.register('test.chain', async (timer) => {
      const now = app.platform.clock.now();
      fired.push({ id: timer.id, at: now.toISOString() });
      // A timer that schedules the next one an hour later, like a retry schedule does.
      const step = Number(timer.payload.step);
      if (step < 3) {
        await app.platform.timers.schedule({
          id: `chain-${step + 1}`,
          kind: 'test.chain',
          dueAt: new Date(new Date(timer.dueAt).getTime() + 3_600_000).toISOString(),
          payload: { step: step + 1 },
        });
      }
    });
    const start = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    const firstDue = new Date(new Date(start).getTime() + 3_600_000).toISOString();
    await app.platform.timers.schedule({ id: 'chain-1', kind: 'test.chain', dueAt: firstDue, payload: { step: 1 } });

    const early = await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 1800 } });
    expect(early.status).toBe(200);
    expect(fired).toEqual([]);

    const advanced = await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 3 * 3600 } });
    expect(advanced.status).toBe(200);
    expect(fired.map((f) => f.id)).toEqual(['chain-1', 'chain-2', 'chain-3']);
    const dues = [1, 2, 3].map((h) => new Date(new Date(start).getTime() + h * 3_600_000).getTime());
    fired.forEach((f, i) => {
      expect(new Date(f.at).getTime()).toBeGreaterThanOrEqual(dues[i]!);
      expect(new Date(f.at).getTime()).toBeLessThan(dues[i]! + 60_000);
    });
    expect(new Date(advanced.body.data.now).getTime()).toBeGreaterThanOrEqual(new Date(start).getTime() + 3.5 * 3_600_000);
    expect(await app.platform.readStore.timerStatus('chain-3')).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('retries a failing timer later and records the error', async () => {
    let calls = 0;
    app.platform.timers.register('test.flaky', async () => {
      calls += 1;
      if (calls === 1) throw new Error('downstream unavailable');
    });
    const now = (await app.request('GET', '/api/sandbox/clock')).body.data.now as string;
    await app.platform.timers.schedule({ id: 'flaky-1', kind: 'test.flaky', dueAt: now, payload: {} });
    await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 1 } });
    expect(await app.platform.readStore.timerStatus('flaky-1')).toEqual({ status: 'scheduled', attempts: 1, lastError: 'downstream unavailable' });
    await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 60 } });
    expect(calls).toBe(2);
    expect((await app.platform.readStore.timerStatus('flaky-1'))!.status).toBe('done');
  });

  it('stores the clock offset before due work runs, so a kill during an advance cannot lose the time it reached (issue 15)', async () => {
    const seen: { storedOffsetMs: number | null; clockOffsetMs: number }[] = [];
    app.platform.timers.register('test.offset', async () => {
      // What a process restarted right now (after a SIGKILL mid-advance) would load as its clock.
      const stored = await app.platform.readStore.getOperational<{ id: string; offsetMs: number }>('sandbox', 'clock');
      seen.push({ storedOffsetMs: stored?.offsetMs ?? null, clockOffsetMs: app.platform.sandboxClock!.offset });
    });
    const start = new Date((await app.request('GET', '/api/sandbox/clock')).body.data.now as string).getTime();
    for (const hours of [1, 2]) {
      await app.platform.timers.schedule({ id: `offset-${hours}`, kind: 'test.offset', dueAt: new Date(start + hours * 3_600_000).toISOString(), payload: {} });
    }
    expect((await app.request('POST', '/api/sandbox/clock/advance', { body: { seconds: 3 * 3600 } })).status).toBe(200);
    expect(seen).toHaveLength(2);
    for (const step of seen) expect(step.storedOffsetMs).toBe(step.clockOffsetMs);
  });

  it('rejects a bad advance body', async () => {
    for (const body of [{ seconds: -5 }, { seconds: 1.5 }, { seconds: '10' }, {}]) {
      const response = await app.request('POST', '/api/sandbox/clock/advance', { body });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
    }
  });
});
