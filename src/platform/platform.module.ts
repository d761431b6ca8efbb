import { DynamicModule, Global, Module } from '@nestjs/common';
import { CLOCK, REAL_CLOCK, SystemClock } from './clock/clock';
import { EVENT_STORE } from './event-store/event-store.port';
import { READ_STORE } from './read-store/read-store.port';
import { DOCUMENT_READER, DOCUMENT_STORE } from './read-store/document-store.port';
import { TIMER_STORE } from './read-store/timer-store.port';
import { LEASE_STORE } from './read-store/lease-store.port';
import { OPERATIONAL_STORE } from './read-store/operational-store.port';
import { AggregateRepository } from './event-sourcing/aggregate-repository';
import { ProjectionEngine } from './projections/projection-engine';
import { MetricsRegistry } from './metrics/metrics-registry';
import { TimerWorker } from './timers/timer-worker';
import { Platform } from './platform';
import { APP_CONFIG, LOGGER, PLATFORM } from './platform.tokens';
import { ReadYourWrites } from './projections/read-your-writes';

/** Makes the already-built platform injectable everywhere. */
@Global()
@Module({})
export class PlatformModule {
  static forPlatform(platform: Platform): DynamicModule {
    const providers = [
      { provide: PLATFORM, useValue: platform },
      { provide: APP_CONFIG, useValue: platform.config },
      { provide: LOGGER, useValue: platform.logger },
      { provide: CLOCK, useValue: platform.clock },
      { provide: REAL_CLOCK, useValue: new SystemClock() },
      { provide: EVENT_STORE, useValue: platform.events },
      { provide: READ_STORE, useValue: platform.readStore },
      // The read-side ports, all served by the one read store.
      ...[DOCUMENT_READER, DOCUMENT_STORE, TIMER_STORE, LEASE_STORE, OPERATIONAL_STORE].map((port) => ({ provide: port, useExisting: READ_STORE })),
      { provide: AggregateRepository, useValue: platform.aggregates },
      { provide: ProjectionEngine, useValue: platform.engine },
      { provide: MetricsRegistry, useValue: platform.metrics },
      { provide: TimerWorker, useValue: platform.timers },
      ReadYourWrites,
    ];
    return { module: PlatformModule, providers, exports: providers.map((p) => ('provide' in p ? p.provide : p)) };
  }
}
