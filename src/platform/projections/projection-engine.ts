import { EventEmitter } from 'node:events';
import { EventStore } from '../event-store/event-store.port';
import { DocumentStore, ProjectionState } from '../read-store/document-store.port';
import { LeaseStore } from '../read-store/lease-store.port';
import { AppLogger } from '../logging/app-logger';
import { isProjection, readsStream, Subscriber } from './projection-batch';
import { projectionVersion } from './projection';
import { RunnerOptions, SubscriberRunner } from './subscriber-runner';

const SNAPSHOT_TTL_MS = 20;

export interface SubscriberStatus {
  name: string;
  kind: 'projection' | 'processor';
  generation: number;
  checkpoint: number | null;
  head: number | null;
  /**
   * Events of the log the active generation has not yet considered (by position for SQLite; for
   * EventStoreDB an upper bound). Events it skipped count as considered, stored checkpoint or not.
   */
  lag: number;
  status: 'running' | 'stalled';
  error: string | null;
}

export class ProjectionLagError extends Error {
  readonly code = 'PROJECTION_LAG';
  /**
   * What the client is told. By default a write's: it was recorded, only not readable yet. A caller that
   * recorded nothing (the sandbox clock's settle loop) says so instead.
   */
  constructor(
    message: string,
    readonly publicMessage = 'The change was recorded but is not readable yet; retry the read shortly',
  ) {
    super(message);
  }
}

/** Owns every projection and process-manager runner of this process. */
export class ProjectionEngine {
  private readonly runners: SubscriberRunner[] = [];

  constructor(
    private readonly events: EventStore,
    private readonly store: DocumentStore & LeaseStore,
    private readonly logger: AppLogger,
    private readonly options: RunnerOptions,
  ) {
    this.progress.setMaxListeners(0);
  }

  /** Adds a projection or process manager; done while the module graph is built, before `register`. */
  add(subscriber: Subscriber): void {
    if (this.started) throw new Error(`cannot add ${subscriber.name}: the engine is running`);
    if (this.runners.some((r) => r.subscriber.name === subscriber.name)) throw new Error(`a subscriber named ${subscriber.name} is already registered`);
    const runner = new SubscriberRunner(subscriber, this.events, this.store, this.logger, this.options);
    runner.committed.on('commit', () => this.progressed());
    this.runners.push(runner);
  }

  /** Emits on every local commit, and on a hint that another process committed. */
  private readonly progress = new EventEmitter();
  private commitVersion = 0;
  private snapshot: { version: number; at: number; states: Map<string, Promise<ProjectionState>> } | null = null;
  private started = false;
  private stopWatching: (() => void) | null = null;

  private progressed(): void {
    this.commitVersion += 1;
    this.progress.emit('commit');
  }

  /** The read-model projections (not the process managers) that read a stream: what read-your-writes waits for. */
  projectionsReading(streamId: string): string[] {
    return this.runners.filter((r) => isProjection(r.subscriber) && readsStream(r.subscriber, streamId)).map((r) => r.subscriber.name);
  }

  get subscribers(): Subscriber[] {
    return this.runners.map((r) => r.subscriber);
  }

  async register(): Promise<void> {
    for (const runner of this.runners) await runner.register();
  }

  /** Starts the runners of the subscribers `runs` picks (all of them by default); the others run in another process. */
  start(runs: (subscriber: Subscriber) => boolean = () => true): void {
    this.started = true;
    for (const runner of this.runners) if (runs(runner.subscriber)) runner.start();
  }

  async stop(): Promise<void> {
    this.stopWatching?.();
    await Promise.all(this.runners.map((r) => r.stop()));
  }

  /**
   * Read-your-writes: resolves once every subscriber (or the named ones) has applied the log up to
   * `position`. Subscribers may run in another process, so this polls the stored checkpoints, woken
   * early by local commits.
   */
  async waitForPosition(position: number, timeoutMs: number, names: string[] = this.runners.map((r) => r.subscriber.name)): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const behind = await this.behind(names, position);
      if (behind.length === 0) return;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ProjectionLagError(`read models not yet at position ${position}: ${behind.join(', ')}`);
      // The subscribers run in another process (ROLE=api): their commits show up as writes to the store.
      if (!this.started) this.stopWatching ??= this.store.watchCommits(() => this.progressed());
      await this.nextCommit(Math.min(remaining, 20));
    }
  }

  /** Resolves once every subscriber has applied the whole log as it is now. */
  async waitForHead(timeoutMs: number): Promise<void> {
    const head = await this.events.headPosition();
    if (head !== null) await this.waitForPosition(head, timeoutMs);
  }

  async status(): Promise<SubscriberStatus[]> {
    const head = await this.events.headPosition();
    return Promise.all(
      this.runners.map(async (runner) => {
        const state = await this.store.projectionState(runner.subscriber.name);
        // Events skipped since the last stored checkpoint count as considered (see CHECKPOINT_DEFER_MS).
        const checkpoint = maxCheckpoint(state.checkpoint, runner.deferredCheckpoint(state.activeGeneration));
        // Built by an older version: the whole log is still to apply, to the generation being rebuilt.
        const outdated = this.outdated(runner.subscriber, state);
        return {
          name: runner.subscriber.name,
          kind: 'apply' in runner.subscriber ? ('projection' as const) : ('processor' as const),
          generation: state.activeGeneration,
          checkpoint,
          head,
          lag: head === null ? 0 : outdated ? head : Math.max(0, head - (checkpoint ?? 0)),
          status: state.status,
          error: state.error ?? runner.lastError,
        };
      }),
    );
  }

  private async behind(names: string[], position: number): Promise<string[]> {
    const late: string[] = [];
    const states = await this.statesOf(names);
    for (const [index, name] of names.entries()) {
      const state = states[index]!;
      if (state.status === 'stalled') throw new ProjectionLagError(`${name} is stalled: ${state.error}`);
      const runner = this.runners.find((r) => r.subscriber.name === name);
      // Its active generation was built by older code and is being rebuilt from the start (maybe by
      // another process): its checkpoint is the old code's, so it is behind every position until the swap.
      if (runner && this.outdated(runner.subscriber, state)) {
        late.push(`${name} (rebuilding: built by version ${state.version})`);
        continue;
      }
      const deferred = runner?.deferredCheckpoint(state.activeGeneration) ?? null;
      if (Math.max(state.checkpoint ?? -1, deferred ?? -1) < position) late.push(name);
    }
    return late;
  }

  /** A projection whose active generation was built by a lower version than its code declares. */
  private outdated(subscriber: Subscriber, state: ProjectionState): boolean {
    return isProjection(subscriber) && state.version < projectionVersion(subscriber);
  }

  /**
   * Every waiting request re-checks after each commit; they share one read of a projection's stored
   * state per commit (or per 20 ms, for runners in other processes) instead of one read each.
   */
  private statesOf(names: string[]): Promise<ProjectionState[]> {
    const now = Date.now();
    const fresh = this.snapshot && this.snapshot.version === this.commitVersion && now - this.snapshot.at < SNAPSHOT_TTL_MS;
    if (!fresh) this.snapshot = { version: this.commitVersion, at: now, states: new Map() };
    const states = this.snapshot!.states;
    // The names this snapshot has not read yet, in one query (was one projectionState read per name).
    const missing = [...new Set(names.filter((name) => !states.has(name)))];
    if (missing.length) {
      const read = this.store.projectionStates(missing);
      missing.forEach((name, index) =>
        states.set(
          name,
          read.then((all) => all[index]!),
        ),
      );
    }
    return Promise.all(names.map((name) => states.get(name)!));
  }

  private nextCommit(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.progress.off('commit', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.progress.on('commit', done);
    });
  }
}

function maxCheckpoint(stored: number | null, deferred: number | null): number | null {
  return stored === null ? deferred : deferred === null ? stored : Math.max(stored, deferred);
}
