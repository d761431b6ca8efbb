import { EventEmitter } from 'node:events';
import { EventStore } from '../event-store/event-store.port';
import { DocumentStore } from '../read-store/document-store.port';
import { LeaseStore } from '../read-store/lease-store.port';
import { AppLogger } from '../logging/app-logger';
import { applyBatch, isProjection, ProjectionGapError, Subscriber } from './projection-batch';
import { LiveBatcher } from './live-batcher';
import { Projection, projectionVersion } from './projection';
import { rebuildProjection } from './rebuild-projection';

export interface RunnerOptions {
  owner: string;
  leaseMs: number;
  catchUpBatchSize: number;
  retryDelayMs: (failures: number) => number;
  /** Real time for leases: leases must not expire because the sandbox clock jumped a week. */
  realNowMs: () => number;
}

class RestartSignal extends Error {}

/**
 * How long a checkpoint that only skips events of other streams may stay in memory before it is stored.
 * Under load most subscribers see mostly other modules' events; storing each such checkpoint would cost a
 * transaction per subscriber per batch. A crash loses nothing: the events are read and skipped again.
 */
const CHECKPOINT_DEFER_MS = 200;

const PROCESSOR_COMMIT_INTERVAL_MS = 20;

/** How long a read model's runner waits for its last commit's fsync before it applies the next events anyway. */
const SYNC_WAIT_CAP_MS = 5;

/**
 * How often a projection's runner checks whether a rebuild (maybe in another process, the CLI) swapped
 * in a new generation. The runner then follows the new one at once, from the rebuild's checkpoint;
 * without the check it noticed only when an event it handles failed to commit to the retired generation.
 */
const GENERATION_CHECK_MS = 100;

/**
 * Runs one projection or process manager as a singleton (holding a lease): catches up from its
 * checkpoint in batches, then follows the log live. Failures are logged and retried with backoff; a gap
 * parks the subscriber as stalled until an operator rebuilds it.
 */
export class SubscriberRunner {
  readonly committed = new EventEmitter();
  private stopped = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    readonly subscriber: Subscriber,
    private readonly events: EventStore,
    private readonly store: DocumentStore & LeaseStore,
    private readonly logger: AppLogger,
    private readonly options: RunnerOptions,
  ) {
    this.committed.setMaxListeners(0);
  }

  async register(): Promise<void> {
    const projection = isProjection(this.subscriber) ? this.subscriber : null;
    await this.store.registerProjection(this.subscriber.name, projection?.collections ?? [], projection ? projectionVersion(projection) : 1);
  }

  start(): void {
    this.loop ??= this.runForever();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    this.onStop?.();
    await this.loop;
    await this.storingDeferred;
    await this.storeDeferredCheckpoint();
    await this.store.releaseLease(this.leaseName, this.options.owner).catch(() => undefined);
  }

  private get leaseName(): string {
    return `subscriber:${this.subscriber.name}`;
  }

  private async runForever(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!(await this.holdLease())) {
          await this.sleep(this.options.leaseMs / 3);
          continue;
        }
        const state = await this.store.projectionState(this.subscriber.name);
        if (isProjection(this.subscriber) && state.version < projectionVersion(this.subscriber)) {
          await this.rebuildOutdated(this.subscriber, state.version);
          continue;
        }
        if (state.status === 'stalled') {
          await this.sleep(this.options.retryDelayMs(10));
          continue;
        }
        await this.follow(state.activeGeneration);
        failures = 0;
      } catch (error) {
        // Re-read from the stored checkpoint: a deferred one is dropped with the work that failed.
        this.dropDeferredCheckpoint();
        if (error instanceof RestartSignal) continue;
        failures += 1;
        await this.report(error, failures);
        await this.sleep(this.options.retryDelayMs(failures));
      }
    }
  }

  private async follow(generation: number): Promise<void> {
    this.knownRevisions = new Map();
    this.checkpoint = await this.store.checkpointOf(this.subscriber.name, generation);
    if (!isProjection(this.subscriber)) await this.subscriber.recover?.(this.checkpoint);
    for (;;) {
      if (this.stopped) return;
      const batch = await this.events.readAll({ after: this.checkpoint ?? undefined, maxCount: this.options.catchUpBatchSize });
      if (batch.length === 0) break;
      // Catch-up can be long: keep the lease fresh so no other worker takes over mid-way.
      if (!(await this.holdLease())) throw new RestartSignal(`${this.subscriber.name}: lease lost during catch-up`);
      await this.commit(generation, batch);
    }
    // Read models answer read-your-writes waits, so they commit as soon as they can; process managers
    // wait on no request and commit at most every PROCESSOR_COMMIT_INTERVAL_MS when busy, in bigger batches.
    const interval = isProjection(this.subscriber) ? 0 : PROCESSOR_COMMIT_INTERVAL_MS;
    const batcher = new LiveBatcher((batch) => this.commit(generation, batch), this.options.catchUpBatchSize, interval);
    const subscription = this.events.subscribeToAll(this.checkpoint, (event) => batcher.add(event));
    const renew = setInterval(() => void this.renewOrStop(), this.options.leaseMs / 3);
    const swapped = this.generationSwapped(generation);
    try {
      const stop = new Promise<void>((resolve) => (this.onStop = resolve));
      const failure = await Promise.race([subscription.failed, batcher.failed, stop, this.leaseLost, swapped.signal]);
      if (failure instanceof Error) throw failure;
    } finally {
      clearInterval(renew);
      swapped.cancel();
      this.onStop = null;
      batcher.close();
      // A commit still under way would set this.checkpoint after the next follow() has loaded its own
      // (a swapped-in generation's): that follow's first batch would then look like a gap.
      await batcher.settled();
      await subscription.stop();
    }
  }

  /**
   * The active generation was built by older code (a lower Projection.version): replay the whole log
   * into a new generation, as `projections:rebuild` does, and swap it in. Done under this runner's
   * lease, before it follows the log: the outdated generation keeps serving plain reads meanwhile, but
   * its checkpoint does not move, so read-your-writes waits for the rebuilt one like for a catch-up.
   */
  private async rebuildOutdated(projection: Projection, stored: number): Promise<void> {
    const version = projectionVersion(projection);
    const name = projection.name;
    this.logger.warn(
      { subscriber: name, storedVersion: stored, version },
      `projection ${name} was built by version ${stored}, code is version ${version}: rebuilding it from the beginning of the log`,
    );
    const renew = setInterval(() => void this.renewOrStop(), this.options.leaseMs / 3);
    try {
      const started = this.options.realNowMs();
      const result = await rebuildProjection(this.events, this.store, projection, {
        nowMs: this.options.realNowMs,
        onDiscarded: (generations) => this.logger.warn({ subscriber: name, generations }, 'dropped shadow generations left by an interrupted rebuild'),
        onProgress: (p) => this.logger.info({ subscriber: name, applied: p.applied, total: p.total, etaSeconds: p.etaSeconds }, 'rebuilding outdated projection'),
      });
      this.logger.warn(
        { subscriber: name, version, generation: result.generation, applied: result.applied, ms: this.options.realNowMs() - started },
        `projection ${name} rebuilt at version ${version}: ${result.applied} events into generation ${result.generation}, swapped in`,
      );
    } finally {
      clearInterval(renew);
    }
  }

  /**
   * Resolves with a RestartSignal once `generation` is no longer the active one (a rebuild swapped in
   * another) or a deferred checkpoint found it retired. Process managers are never rebuilt: no check.
   */
  private generationSwapped(generation: number): { signal: Promise<RestartSignal>; cancel: () => void } {
    let timer: NodeJS.Timeout | null = null;
    const signal = new Promise<RestartSignal>((resolve) => {
      const restart = (why: string) => resolve(new RestartSignal(`${this.subscriber.name}: ${why}; following the new generation`));
      this.onRetired = () => restart(`generation ${generation} was retired`);
      if (!isProjection(this.subscriber)) return;
      let checking = false;
      timer = setInterval(() => {
        if (checking) return;
        checking = true;
        this.store
          .projectionState(this.subscriber.name)
          .then((state) => state.activeGeneration !== generation && restart(`generation ${state.activeGeneration} replaced ${generation}`))
          .catch(() => undefined) // a transient read failure: the next check tries again
          .finally(() => (checking = false));
      }, GENERATION_CHECK_MS);
    });
    return {
      signal,
      cancel: () => {
        if (timer) clearInterval(timer);
        this.onRetired = null;
      },
    };
  }

  private onRetired: (() => void) | null = null;

  /** Stream revisions this runner committed while holding the lease (saves a read per event). */
  private knownRevisions = new Map<string, number>();
  /** The checkpoint of the generation this runner follows, as it last committed (or deferred) it. */
  private checkpoint: number | null = null;
  private onStop: (() => void) | null = null;
  private leaseLostSignal: (() => void) | null = null;
  private leaseLost = new Promise<RestartSignal>((resolve) => (this.leaseLostSignal = () => resolve(new RestartSignal())));

  private async renewOrStop(): Promise<void> {
    const held = await this.holdLease().catch(() => false);
    if (!held) {
      this.logger.warn({ subscriber: this.subscriber.name }, 'lease lost; stepping back');
      const signal = this.leaseLostSignal;
      this.leaseLost = new Promise<RestartSignal>((resolve) => (this.leaseLostSignal = () => resolve(new RestartSignal())));
      signal?.();
    }
  }

  private async commit(generation: number, batch: Parameters<typeof applyBatch>[3]): Promise<void> {
    this.throwIfUnsynced();
    // A read model goes on during the fsync (ProjectionCommit.beforeDisk); a process manager's commit
    // stands for effects it caused, and waits for the disk.
    const beforeDisk = isProjection(this.subscriber);
    const checkpoint = batch[batch.length - 1]!.position;
    const outcome = await applyBatch(this.store, this.subscriber, generation, batch, {
      knownRevisions: this.knownRevisions,
      checkpoint: this.checkpoint,
      deferCheckpointOnly: true,
      beforeDisk,
      // Every read and live delivery starts right after this.checkpoint, so where positions are contiguous a
      // hole is a gap, and no stream revision need be stored (docs/decisions.md, "Gaps found by position").
      gapsByPosition: this.events.contiguousPositions,
    });
    if (beforeDisk && outcome === 'committed') await this.syncedOrLate(checkpoint);
    if (outcome === 'deferred') this.deferCheckpoint(generation, checkpoint);
    else if (outcome === 'committed') this.deferred = null;
    else throw new RestartSignal(`${this.subscriber.name} generation ${generation}: commit was ${outcome}; reloading`);
    this.checkpoint = checkpoint;
    this.lastError = null;
    this.committed.emit('commit', checkpoint);
  }

  /** An fsync that failed under a commit this runner went on from: its next commit reloads from the stored checkpoint instead. */
  private unsynced: Error | null = null;

  /**
   * Waits for the fsync of the commit, but no longer than SYNC_WAIT_CAP_MS: a usual fsync (1-5 ms) still
   * gathers the events that arrive meanwhile into the next batch, as waiting for the disk did (a
   * transaction per event would cost the worker more CPU per event), while a stalled one (30-90 ms under
   * disk contention) no longer holds the read model and the writes waiting on it.
   */
  private async syncedOrLate(checkpoint: number): Promise<void> {
    const synced = this.store.synced().catch((error: unknown) => {
      this.unsynced ??= new Error(`${this.subscriber.name}: the commit up to position ${checkpoint} was not fsynced: ${String(error)}`);
      this.logger.error({ subscriber: this.subscriber.name, checkpoint, err: error }, 'a read-model commit could not be fsynced; reloading from the stored checkpoint');
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([synced, new Promise<void>((resolve) => (timer = setTimeout(resolve, SYNC_WAIT_CAP_MS)))]);
    clearTimeout(timer);
  }

  private throwIfUnsynced(): void {
    const failure = this.unsynced;
    this.unsynced = null;
    if (failure) throw failure;
  }

  /** A checkpoint past events of other streams only, not yet stored (see CHECKPOINT_DEFER_MS). */
  private deferred: { generation: number; checkpoint: number } | null = null;
  private deferredTimer: NodeJS.Timeout | null = null;

  /** Where this runner has really got to in `generation`, counting a checkpoint not yet stored. */
  deferredCheckpoint(generation: number): number | null {
    return this.deferred?.generation === generation ? this.deferred.checkpoint : null;
  }

  /** The store of a deferred checkpoint under way (stop() waits for it). */
  private storingDeferred: Promise<void> | null = null;

  private deferCheckpoint(generation: number, checkpoint: number): void {
    this.deferred = { generation, checkpoint };
    this.scheduleDeferredStore();
  }

  private scheduleDeferredStore(): void {
    this.deferredTimer ??= setTimeout(() => {
      this.deferredTimer = null;
      this.storingDeferred = this.storeDeferredCheckpoint().finally(() => (this.storingDeferred = null));
    }, CHECKPOINT_DEFER_MS);
  }

  private dropDeferredCheckpoint(): void {
    if (this.deferredTimer) clearTimeout(this.deferredTimer);
    this.deferredTimer = null;
    this.deferred = null;
  }

  private async storeDeferredCheckpoint(): Promise<void> {
    if (this.deferredTimer) clearTimeout(this.deferredTimer);
    this.deferredTimer = null;
    const pending = this.deferred;
    if (!pending) return;
    try {
      // 'stale' means a later batch already stored a checkpoint past it; 'retired', that a rebuild swapped
      // in another generation: follow that one now rather than at the next event this runner handles.
      const outcome = await this.store.commitProjection({ projection: this.subscriber.name, ...pending, streamRevisions: {}, writes: [] });
      if (this.deferred === pending) this.deferred = null;
      if (outcome === 'retired') this.onRetired?.();
    } catch (error) {
      this.logger.error({ subscriber: this.subscriber.name, checkpoint: pending.checkpoint, err: error }, 'storing a deferred checkpoint failed; retrying');
      if (!this.stopped) this.scheduleDeferredStore();
    }
  }

  private holdLease(): Promise<boolean> {
    return this.store.tryAcquireLease(this.leaseName, this.options.owner, this.options.realNowMs(), this.options.leaseMs);
  }

  private async report(error: unknown, failures: number): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ProjectionGapError) {
      this.logger.error({ subscriber: this.subscriber.name, err: error }, 'projection stalled on a gap');
      await this.store.setProjectionError(this.subscriber.name, message);
      return;
    }
    this.lastError = `${message} (${failures} consecutive failures)`;
    this.logger.error({ subscriber: this.subscriber.name, err: error, failures }, 'subscriber failed; retrying');
  }

  /** The last transient failure, for /health; cleared on the next successful commit. */
  lastError: string | null = null;

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
