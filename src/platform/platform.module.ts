import { randomUUID } from 'node:crypto';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AppConfig } from './config/app-config';
import { CLOCK, Clock, REAL_CLOCK, SandboxClock } from './clock/clock';
import { EVENT_STORE, EventStore } from './event-store/event-store.port';
import { READ_STORE, ReadStore } from './read-store/read-store.port';
import { DOCUMENT_READER, DOCUMENT_STORE } from './read-store/document-store.port';
import { TIMER_STORE } from './read-store/timer-store.port';
import { LEASE_STORE } from './read-store/lease-store.port';
import { OPERATIONAL_STORE } from './read-store/operational-store.port';
import { AggregateRepository } from './event-sourcing/aggregate-repository';
import { ProjectionEngine } from './projections/projection-engine';
import { MetricsRegistry } from './metrics/metrics-registry';
import { TimerWorker } from './timers/timer-worker';
import { AppLogger } from './logging/app-logger';
import { openEventStore, openReadStore, realNowMs, realTime, restoreSandboxClock } from './platform';
import { APP_CONFIG, INSTANCE_ID, LOGGER, SANDBOX_CLOCK } from './platform.tokens';
import { ReadYourWrites } from './projections/read-your-writes';
import { DueWorkRegistry } from './due-work-registry';
import { PlatformRuntime } from './platform-runtime';
import { WorkflowRuntime } from './workflows/workflow-processor';

/**
 * The infrastructure every module uses, built by Nest from the validated config: stores, clocks,
 * the aggregate repository, the projection engine and the timer worker. Global, so modules inject
 * the pieces they use; `PlatformRuntime` collects the projections, process managers and timer
 * handlers the modules declare and starts and stops them.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, logger: AppLogger): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: INSTANCE_ID, useValue: `${process.pid}-${randomUUID()}` },
      { provide: REAL_CLOCK, useValue: realTime },
      { provide: EVENT_STORE, useFactory: () => openEventStore(config) },
      { provide: READ_STORE, useFactory: () => openReadStore(config) },
      // The read-side ports, all served by the one read store.
      ...[DOCUMENT_READER, DOCUMENT_STORE, TIMER_STORE, LEASE_STORE, OPERATIONAL_STORE].map((port) => ({ provide: port, useExisting: READ_STORE })),
      { provide: SANDBOX_CLOCK, useFactory: (store: ReadStore) => (config.sandbox ? restoreSandboxClock(store) : null), inject: [READ_STORE] },
      { provide: CLOCK, useFactory: (sandboxClock: SandboxClock | null) => sandboxClock ?? realTime, inject: [SANDBOX_CLOCK] },
      MetricsRegistry,
      {
        provide: AggregateRepository,
        useFactory: (events: EventStore, clock: Clock, metrics: MetricsRegistry) => new AggregateRepository(events, clock, metrics),
        inject: [EVENT_STORE, CLOCK, MetricsRegistry],
      },
      {
        provide: TimerWorker,
        useFactory: (store: ReadStore, clock: Clock, owner: string) =>
          new TimerWorker(store, clock, logger, {
            owner,
            pollIntervalMs: 250,
            leaseMs: 30_000,
            batchSize: 256,
            concurrency: 64,
            // One kind never takes every slot: a slow kind leaves 16 slots to the others.
            perKindConcurrency: 48,
            retryDelayMs: (attempts) => (attempts >= 10 ? null : Math.min(2 ** attempts * 1000, 3_600_000)),
            realNowMs,
          }),
        inject: [READ_STORE, CLOCK, INSTANCE_ID],
      },
      {
        provide: ProjectionEngine,
        useFactory: (events: EventStore, store: ReadStore, owner: string) =>
          new ProjectionEngine(events, store, logger, {
            owner,
            leaseMs: 15_000,
            catchUpBatchSize: 500,
            retryDelayMs: (failures) => Math.min(250 * 2 ** failures, 30_000),
            realNowMs,
          }),
        inject: [EVENT_STORE, READ_STORE, INSTANCE_ID],
      },
      ReadYourWrites,
      DueWorkRegistry,
      WorkflowRuntime,
      PlatformRuntime,
    ];
    return {
      module: PlatformModule,
      imports: [DiscoveryModule],
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
