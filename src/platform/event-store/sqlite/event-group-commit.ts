import { AppendResult, ConcurrencyError, ExpectedRevision, NewEvent } from '../event-store.port';
import { AppendOutcome, AppendRequest, SqliteAppendError } from './group-appender';

interface PendingAppend {
  request: AppendRequest;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** Commits one group: on the service's thread (returns the outcomes) or on the writer thread (a promise of them). */
export type GroupCommitter = (group: AppendRequest[]) => AppendOutcome[] | Promise<AppendOutcome[]>;

/**
 * Group commit: appends share one transaction; each resolves only once that commit is durable. Appends
 * requested by the code a commit resumed (the next command of a process manager's batch, usually)
 * commit as soon as the current microtasks have run; the others (concurrent requests, each arriving in
 * a turn of its own) wait for the next turn of the event loop, so one commit takes them all. While a group
 * is on the writer thread, the appends requested meanwhile wait and go together in the next one.
 *
 * Under settlement load a turn of the worker's loop took milliseconds and a process manager's commands on
 * one Split run one after another: waiting a turn per command held each batch up for ten turns and more,
 * and split_settlement fell 30,000 events behind. The price: a batch's commands run to its end without
 * yielding the loop (issue 13).
 */
export class EventGroupCommit {
  private pending: PendingAppend[] = [];
  private committing = false;
  private resuming = false;
  private commits = 0;
  private readonly drained: (() => void)[] = [];

  constructor(
    private readonly commitGroup: GroupCommitter,
    private readonly onCommit: () => void,
  ) {}

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const request: AppendRequest = { streamId, expected, events: events.map((e) => [e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)]) };
      this.pending.push({ request, resolve, reject });
      if (this.pending.length > 1 || this.committing) return;
      if (this.resuming) process.nextTick(() => this.flush());
      else setImmediate(() => this.flush());
    });
  }

  /** Resolves once every append requested so far has been settled. */
  async drain(): Promise<void> {
    this.flush();
    if (!this.committing && this.pending.length === 0) return;
    await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private flush(): void {
    if (this.committing || this.pending.length === 0) return;
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
    this.committing = true;
    outcomes.then(
      (settled) => this.settle(appends, settled),
      (error: unknown) => this.settle(appends, { failed: error }),
    );
  }

  /** Settles a group with its outcomes, or every append of it with the error that abandoned the whole group. */
  private settle(appends: PendingAppend[], outcomes: AppendOutcome[] | { failed: unknown }): void {
    this.committing = false;
    if (Array.isArray(outcomes)) outcomes.forEach((outcome, index) => settleOne(appends[index]!, outcome));
    else for (const append of appends) append.reject(outcomes.failed);
    // Ticks run before microtasks: a tick queued from a microtask runs once all of them have run (unless
    // a later commit, requested by them, ran first and keeps the window open for its own).
    const commit = ++this.commits;
    this.resuming = true;
    queueMicrotask(() =>
      process.nextTick(() => {
        if (this.commits === commit) this.resuming = false;
        this.flush();
        if (!this.committing && this.pending.length === 0) for (const resolve of this.drained.splice(0)) resolve();
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
