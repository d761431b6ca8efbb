import { performance } from 'node:perf_hooks';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AppConfig, WorkerRuns } from './config/app-config';
import { CLOCK, Clock, SandboxClock } from './clock/clock';
import { EVENT_STORE, EventStore } from './event-store/event-store.port';
import { READ_STORE, ReadStore } from './read-store/read-store.port';
import { AggregateRepository } from './event-sourcing/aggregate-repository';
import { ProjectionEngine } from './projections/projection-engine';
import { assertCheckpointsWithinLog } from './projections/checkpoints-within-log';
import { isProjection, Subscriber } from './projections/projection-batch';
import { MetricsRegistry } from './metrics/metrics-registry';
import { TimerWorker } from './timers/timer-worker';
import { AppLogger } from './logging/app-logger';
import { DueWork, DueWorkers, FiresTimers, LogSubscriber, TimerHandlers } from './background.decorators';
import { DueWorkRegistry } from './due-work-registry';
import { Platform } from './platform';
import { APP_CONFIG, INSTANCE_ID, LOGGER, SANDBOX_CLOCK } from './platform.tokens';

/** The subscribers each WORKER_RUNS starts; timers and due work run wherever the process managers do. */
const SUBSCRIBERS_RUN: Record<WorkerRuns, (subscriber: Subscriber) => boolean> = {
  everything: () => true,
  'read-models': isProjection,
  'process-managers': (subscriber) => !isProjection(subscriber),
};

/** A shutdown step slower than this is logged (a test's teardown timed out twice under CI load in `app.close()`). */
const SLOW_STOP_STEP_MS = 2_000;

/**
 * Collects what the modules run in the background (providers marked `@LogSubscriber()` and
 * `@TimerHandlers()`, `@DueWorkers()`), and starts and stops it in order: subscribers and timers after the HTTP app is
 * up (only where ROLE runs workers), the stores last.
 */
@Injectable()
export class PlatformRuntime implements OnModuleInit {
  readonly platform: Platform;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) logger: AppLogger,
    @Inject(CLOCK) clock: Clock,
    @Inject(SANDBOX_CLOCK) sandboxClock: SandboxClock | null,
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_STORE) readStore: ReadStore,
    @Inject(INSTANCE_ID) instanceId: string,
    metrics: MetricsRegistry,
    aggregates: AggregateRepository,
    engine: ProjectionEngine,
    timers: TimerWorker,
    private readonly dueWork: DueWorkRegistry,
  ) {
    this.platform = { config, logger, clock, sandboxClock, events, readStore, metrics, aggregates, engine, timers, instanceId };
  }

  onModuleInit(): void {
    for (const subscriber of this.discovered<Subscriber>(LogSubscriber.KEY)) this.platform.engine.add(subscriber);
    for (const handler of this.discovered<FiresTimers>(TimerHandlers.KEY)) {
      for (const { definition, fire } of handler.timerRegistrations) this.platform.timers.register(definition.kind, fire, definition.options);
    }
    for (const work of this.discovered<DueWork>(DueWorkers.KEY)) this.dueWork.add(work);
  }

  /** Declares every projection's collections (and creates generation 1 of a new one). */
  async register(): Promise<void> {
    await this.platform.engine.register();
  }

  /** Refuses to run on a read store that has seen more of the log than the event store holds. */
  async checkStores(): Promise<void> {
    const { events, readStore, engine } = this.platform;
    await assertCheckpointsWithinLog(
      events,
      readStore,
      engine.subscribers.map((s) => s.name),
    );
  }

  /** Starts what WORKER_RUNS asks for: the projections, the process managers with timers and due work (webhook deliveries), or both. */
  startWorkers(): void {
    const runs = this.platform.config.workerRuns;
    this.platform.engine.start(SUBSCRIBERS_RUN[runs]);
    if (runs === 'read-models') return;
    this.platform.timers.start();
    for (const work of this.dueWork.all) work.start();
  }

  async stop(): Promise<void> {
    for (const work of this.dueWork.all) await this.stopStep(`stopping ${work.constructor.name}`, () => work.stop());
    await this.stopStep('stopping the timers', () => this.platform.timers.stop());
    await this.stopStep('stopping the subscribers', () => this.platform.engine.stop());
    for (const work of this.dueWork.all) await this.stopStep(`closing ${work.constructor.name}`, () => work.close());
    await this.stopStep('closing the event store', () => this.platform.events.close());
    await this.stopStep('closing the read store', () => this.platform.readStore.close());
  }

  /** One step of the shutdown; a step slower than SLOW_STOP_STEP_MS is logged by name, so a slow shutdown says what held it. */
  async stopStep(step: string, run: () => Promise<void>): Promise<void> {
    const started = performance.now();
    await run();
    const ms = Math.round(performance.now() - started);
    if (ms > SLOW_STOP_STEP_MS) this.platform.logger.warn({ step, ms }, `shutdown: ${step} took ${ms} ms`);
  }

  private discovered<T>(key: string): T[] {
    return this.discovery.getProviders({ metadataKey: key }).map((wrapper) => wrapper.instance as T);
  }
}
