import { runInNewContext } from 'node:vm';
import { NewEvent, StoreBusyError } from '../event-store.port';
import { EventGroupCommit } from './event-group-commit';
import { WRITER_THREAD_SENDING } from './event-writer-thread';
import { AppendOutcome, AppendRequest, SqliteAppendError } from './group-appender';

/** A committer standing in for the writer thread: it records each group and answers it when told to. */
function threadCommitter() {
  const groups: { streamIds: string[]; answer: () => void }[] = [];
  let position = 0;
  const commit = (group: AppendRequest[]) =>
    new Promise<AppendOutcome[]>((resolve) => {
      groups.push({
        streamIds: group.map((append) => append.streamId),
        answer: () => resolve(group.map((): AppendOutcome => ({ ok: { position: ++position, nextExpectedRevision: 0 } }))),
      });
    });
  return { groups, commit };
}

const event = (n: number): NewEvent => ({
  id: `evt-${n}`,
  type: 'test.happened',
  data: { n },
  metadata: { correlationId: 'c', causationId: null, actor: 'test', occurredAt: '2026-01-01T00:00:00.000Z' },
});
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('EventGroupCommit', () => {
  it('sends a group at the end of the turn when no size is set: every append of the turn in one group', async () => {
    const thread = threadCommitter();
    const commits = new EventGroupCommit(thread.commit, () => undefined);
    const appended = Array.from({ length: 20 }, (_, n) => commits.append(`s-${n}`, [event(n)], 'no_stream'));
    expect(thread.groups).toHaveLength(0);
    await turn();
    expect(thread.groups.map((g) => g.streamIds.length)).toEqual([20]);
    thread.groups[0]!.answer();
    expect((await Promise.all(appended)).map((r) => r.position)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
  });

  it("with the writer thread's sending, sends the first eight of a turn at once and the rest at its end, committed in order", async () => {
    const thread = threadCommitter();
    const commits = new EventGroupCommit(thread.commit, () => undefined, WRITER_THREAD_SENDING);
    const appended = Array.from({ length: 20 }, (_, n) => commits.append(`s-${n}`, [event(n)], 'no_stream'));
    // Still in the turn that requested them: the first eight are already on the thread.
    expect(thread.groups.map((g) => g.streamIds)).toEqual([Array.from({ length: 8 }, (_, n) => `s-${n}`)]);
    await turn();
    // The rest of the turn goes at its end, while the first group is still unanswered.
    expect(thread.groups.map((g) => g.streamIds.length)).toEqual([8, 12]);
    expect(thread.groups[1]!.streamIds[0]).toBe('s-8');
    // Two are in flight: the next turn's appends wait for an answer, then go together.
    const later = [commits.append('late-1', [event(21)], 'no_stream'), commits.append('late-2', [event(22)], 'no_stream')];
    await turn();
    expect(thread.groups).toHaveLength(2);
    thread.groups[0]!.answer();
    await turn();
    expect(thread.groups.map((g) => g.streamIds)).toEqual([expect.any(Array), expect.any(Array), ['late-1', 'late-2']]);
    thread.groups[1]!.answer();
    thread.groups[2]!.answer();
    // Positions follow the order the appends were requested in.
    expect((await Promise.all([...appended, ...later])).map((r) => r.position)).toEqual(Array.from({ length: 22 }, (_, n) => n + 1));
  });

  it("with the writer thread's sending, drain waits for every group in flight", async () => {
    const thread = threadCommitter();
    const commits = new EventGroupCommit(thread.commit, () => undefined, WRITER_THREAD_SENDING);
    const appended = Array.from({ length: 10 }, (_, n) => commits.append(`s-${n}`, [event(n)], 'no_stream'));
    let drained = false;
    const draining = commits.drain().then(() => (drained = true));
    expect(thread.groups.map((g) => g.streamIds.length)).toEqual([8, 2]);
    thread.groups[0]!.answer();
    await turn();
    expect(drained).toBe(false);
    thread.groups[1]!.answer();
    await draining;
    expect(await Promise.all(appended)).toHaveLength(10);
  });

  it("with the writer thread's sending, a turn with fewer than eight appends sends them together at its end", async () => {
    const thread = threadCommitter();
    const commits = new EventGroupCommit(thread.commit, () => undefined, WRITER_THREAD_SENDING);
    const appended = [commits.append('a', [event(1)], 'no_stream'), commits.append('b', [event(2)], 'no_stream')];
    expect(thread.groups).toHaveLength(0);
    await turn();
    expect(thread.groups.map((g) => g.streamIds)).toEqual([['a', 'b']]);
    thread.groups[0]!.answer();
    await Promise.all(appended);
  });

  it('a group refused for a busy write lock rejects every append of it with StoreBusyError (retryable), on the thread or on the service thread', async () => {
    const busy = () => new SqliteAppendError('database is locked', 'SQLITE_BUSY');
    const onThread = new EventGroupCommit(
      () => Promise.reject(busy()),
      () => undefined,
      WRITER_THREAD_SENDING,
    );
    const inline = new EventGroupCommit(
      () => {
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      },
      () => undefined,
    );
    for (const commits of [onThread, inline]) {
      const appended = [commits.append('a', [event(1)], 'no_stream'), commits.append('b', [event(2)], 'no_stream')];
      for (const append of appended) {
        const error: unknown = await append.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StoreBusyError);
        expect((error as StoreBusyError).code).toBe('STORE_BUSY');
        expect((error as StoreBusyError).message).toContain('database is locked');
      }
    }
  });

  it('tells a busy write lock by its code, also when the error comes from another realm (as better-sqlite3 throws them in a second Jest file)', async () => {
    const foreign = runInNewContext("Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })") as Error;
    expect(foreign).not.toBeInstanceOf(Error);
    const commits = new EventGroupCommit(
      () => {
        throw foreign;
      },
      () => undefined,
    );
    const error: unknown = await commits.append('a', [event(1)], 'no_stream').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreBusyError);
    expect((error as StoreBusyError).message).toContain('database is locked');
  });

  it('a group SQLite abandoned for another reason (an I/O error) rejects with that error, not as busy', async () => {
    const commits = new EventGroupCommit(
      () => Promise.reject(new SqliteAppendError('disk I/O error', 'SQLITE_IOERR')),
      () => undefined,
      WRITER_THREAD_SENDING,
    );
    const error: unknown = await commits.append('a', [event(1)], 'no_stream').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqliteAppendError);
    expect(error).not.toBeInstanceOf(StoreBusyError);
  });
});
