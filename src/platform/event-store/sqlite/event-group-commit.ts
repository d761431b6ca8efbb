import { AppendResult, ConcurrencyError, ExpectedRevision, NewEvent, StoreBusyError } from '../event-store.port';
import { AppendOutcome, AppendRequest, SqliteAppendError } from './group-appender';

interface PendingAppend {
  request: AppendRequest;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** Commits one group: on the service's thread (returns the outcomes) or on the writer thread (a promise of them). */
export type GroupCommitter = (group: AppendRequest[]) => AppendOutcome[] | Promise<AppendOutcome[]>;

/**
 * When a group goes: at the end of the turn, or, when none is in flight, as soon as `sendAtAppends` appends
 * are pending; never while `maxInFlight` groups are unanswered (the next answer sends it).
 */
export interface GroupSending {
  sendAtAppends: number;
  /** Groups sent and not yet answered; a committer given more than one must commit them in the order sent. */
  maxInFlight: number;
}

/** One group at a time, sent at the end of the turn (or once the resumed code's microtasks ran). */
export const AT_TURN_END: GroupSending = { sendAtAppends: Infinity, maxInFlight: 1 };

/**
 * Group commit: appends share one transaction; each resolves only once that commit is durable. Appends
 * requested by the code a commit resumed (the next command of a process manager's batch, usually)
 * commit as soon as the current microtasks have run; the others (concurrent requests, each arriving in
 * a turn of its own) wait for the next turn of the event loop, so one commit takes them all. While the
 * groups allowed are on the writer thread, the appends requested meanwhile wait and go together in the next one.
 *
 * Under settlement load a turn of the worker's loop took milliseconds and a process manager's commands on
 * one Split run one after another: waiting a turn per command held each batch up for ten turns and more,
 * and split_settlement fell 30,000 events behind. The price: a batch's commands run to its end without
 * yielding the loop (issue 13).
 *
 * How groups go (`GroupSending`): by default one at a time, at the end of the turn. The api's writer thread
 * takes two: a group goes as soon as it holds `sendAtAppends` appends, and the rest of the turn goes at its
 * end as a second one, which the thread commits right after the first. Waiting for the turn's end, the 32
 * requests a turn read formed one group, waited for one fsync and then for the worker together, and the api
 * and the worker took turns being idle (docs/decisions.md, "Append groups go at eight, two in flight").
 */
export class EventGroupCommit {
  private pending: PendingAppend[] = [];
  private inFlight = 0;
  private resuming = false;
  private commits = 0;
  private readonly drained: (() => void)[] = [];

  constructor(
    private readonly commitGroup: GroupCommitter,
    private readonly onCommit: () => void,
    private readonly sending: GroupSending = AT_TURN_END,
  ) {}

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const request: AppendRequest = { streamId, expected, events: events.map((e) => [e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)]) };
      this.pending.push({ request, resolve, reject });
      if (this.inFlight === 0 && this.pending.length >= this.sending.sendAtAppends) return this.flush();
      if (this.pending.length > 1) return;
      if (this.resuming) process.nextTick(() => this.flush());
      else setImmediate(() => this.flush());
    });
  }

  /** Resolves once every append requested so far has been settled. */
  async drain(): Promise<void> {
    this.flush();
    if (this.idle()) return;
    await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private idle(): boolean {
    return this.inFlight === 0 && this.pending.length === 0;
  }

  /** Sends what is pending as one group, unless as many groups as allowed are still unanswered (an answer sends it then). */
  private flush(): void {
    if (this.inFlight >= this.sending.maxInFlight || this.pending.length === 0) return;
    const appends = this.pending;
    this.pending = [];
    let outcomes: AppendOutcome[] | Promise<AppendOutcome[]>;
    try {
      outcomes = this.commitGroup(appends.map((append) => append.request));
    } catch (error) {
      this.settle(appends, { failed: error });
      return;
    }
    if (Array.isArray(outcomes)) return this.settle(appends, outcomes);
    this.inFlight += 1;
    outcomes.then(
      (settled) => this.answered(appends, settled),
      (error: unknown) => this.answered(appends, { failed: error }),
    );
  }

  private answered(appends: PendingAppend[], outcomes: AppendOutcome[] | { failed: unknown }): void {
    this.inFlight -= 1;
    this.settle(appends, outcomes);
  }

  /** Settles a group with its outcomes, or every append of it with the error that abandoned the whole group. */
  private settle(appends: PendingAppend[], outcomes: AppendOutcome[] | { failed: unknown }): void {
    if (Array.isArray(outcomes)) outcomes.forEach((outcome, index) => settleOne(appends[index]!, outcome));
    else for (const append of appends) append.reject(asStoreError(outcomes.failed));
    // Ticks run before microtasks: a tick queued from a microtask runs once all of them have run (unless
    // a later commit, requested by them, ran first and keeps the window open for its own).
    const commit = ++this.commits;
    this.resuming = true;
    queueMicrotask(() =>
      process.nextTick(() => {
        if (this.commits === commit) this.resuming = false;
        this.flush();
        if (this.idle()) for (const resolve of this.drained.splice(0)) resolve();
      }),
    );
    if (Array.isArray(outcomes)) this.onCommit();
  }
}

function settleOne(append: PendingAppend, outcome: AppendOutcome): void {
  if ('ok' in outcome) append.resolve(outcome.ok);
  else if ('conflict' in outcome) append.reject(new ConcurrencyError(outcome.conflict.streamId, outcome.conflict.expected, outcome.conflict.actual));
  else append.reject(new SqliteAppendError(outcome.error.message, outcome.error.code));
}

/**
 * A group refused for a busy write lock (groupAppender rethrows it before anything is written) is retryable;
 * other failures pass as they are. Told by its SQLite code alone, not `instanceof Error`: better-sqlite3's
 * native part builds its errors with the SqliteError of the first realm that loaded it, so in another realm
 * (each Jest test file is one) a busy error is no `Error` there, and was answered 500 instead of 503.
 */
function asStoreError(error: unknown): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY') ? new StoreBusyError(error as Error) : error;
}
