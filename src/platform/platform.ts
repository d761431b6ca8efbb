import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from './config/app-config';
import { Clock, SandboxClock, SystemClock } from './clock/clock';
import { EventStore } from './event-store/event-store.port';
import { SqliteEventStore } from './event-store/sqlite/sqlite-event-store';
import { EsdbEventStore } from './event-store/esdb/esdb-event-store';
import { ReadStore } from './read-store/read-store.port';
import { SqliteReadStore } from './read-store/sqlite/sqlite-read-store';
import { MongoReadStore } from './read-store/mongo/mongo-read-store';
import { AppLogger } from './logging/app-logger';
import { MetricsRegistry } from './metrics/metrics-registry';
import { AggregateRepository } from './event-sourcing/aggregate-repository';
import { ProjectionEngine } from './projections/projection-engine';
import { TimerWorker } from './timers/timer-worker';

export const SANDBOX_CLOCK_DOC = { collection: 'sandbox', id: 'clock' } as const;

/**
 * The infrastructure of one process, as Nest built it (see PlatformModule): a view for the entry
 * points (main, cli, tests, benchmarks) that start, stop and inspect it. Application code injects the
 * single pieces it uses instead.
 */
export interface Platform {
  config: AppConfig;
  logger: AppLogger;
  clock: Clock;
  sandboxClock: SandboxClock | null;
  events: EventStore;
  readStore: ReadStore;
  metrics: MetricsRegistry;
  aggregates: AggregateRepository;
  engine: ProjectionEngine;
  timers: TimerWorker;
  /** Identifies this process as a lease owner. */
  instanceId: string;
}

export const realTime = new SystemClock();
export const realNowMs = () => realTime.now().getTime();

export function openEventStore(config: AppConfig): EventStore {
  mkdirSync(config.dataDir, { recursive: true });
  if (config.eventStoreUrl) return EsdbEventStore.connect(config.eventStoreUrl);
  // The api process only serves requests: its appends' fsyncs are waited for off the event loop. A process
  // that runs process managers keeps committing on its loop (their chained commands must not yield it).
  return new SqliteEventStore(join(config.dataDir, 'events.db'), { commitOn: config.role === 'api' ? 'writer-thread' : 'event-loop' });
}

export async function openReadStore(config: AppConfig): Promise<ReadStore> {
  mkdirSync(config.dataDir, { recursive: true });
  return config.mongoUrl ? MongoReadStore.connect(config.mongoUrl) : new SqliteReadStore(join(config.dataDir, 'read.db'));
}

export async function restoreSandboxClock(store: ReadStore): Promise<SandboxClock> {
  const saved = await store.getOperational<{ id: string; offsetMs: number }>(SANDBOX_CLOCK_DOC.collection, SANDBOX_CLOCK_DOC.id);
  return new SandboxClock(saved?.offsetMs ?? 0, realTime);
}
