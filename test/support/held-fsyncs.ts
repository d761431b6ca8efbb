import fs from 'node:fs';

/**
 * Holds every fs.fsync until released (one at a time, in call order), so a test can see what a store does
 * before its fsync returns. Undo with jest.restoreAllMocks().
 */
export function holdFsyncs(): { calls: () => number; releaseOne: () => void; failOne: () => void; releaseAll: () => void } {
  const held: { release: () => void; fail: () => void }[] = [];
  const real = fs.fsync;
  const spy = jest.spyOn(fs, 'fsync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    held.push({ release: () => real(fd, callback), fail: () => callback(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })) });
  }) as typeof fs.fsync);
  return {
    calls: () => spy.mock.calls.length,
    releaseOne: () => held.shift()!.release(),
    /** Answers the oldest held fsync with EIO, as a failing disk would. */
    failOne: () => held.shift()!.fail(),
    /** Lets every fsync held so far run (a store closes only once its fsyncs returned). */
    releaseAll: () => held.splice(0).forEach((fsync) => fsync.release()),
  };
}

/** Whether `promise` settles within a few turns of the event loop (20 ms). */
export async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  return settled;
}
