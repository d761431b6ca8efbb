import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
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
import { Subscriber } from './projections/projection-batch';
import { TimerWorker } from './timers/timer-worker';

export const SANDBOX_CLOCK_DOC = { collection: 'sandbox', id: 'clock' } as const;

/** The infrastructure every module uses, built once per process from the validated config. */
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

const realTime = new SystemClock();
const realNowMs = () => realTime.now().getTime();

export async function openStores(config: AppConfig): Promise<{ events: EventStore; readStore: ReadStore }> {
  mkdirSync(config.dataDir, { recursive: true });
  const events = config.eventStoreUrl ? EsdbEventStore.connect(config.eventStoreUrl) : new SqliteEventStore(join(config.dataDir, 'events.db'));
  const readStore = config.mongoUrl ? await MongoReadStore.connect(config.mongoUrl) : new SqliteReadStore(join(config.dataDir, 'read.db'));
  return { events, readStore };
}

export async function createPlatform(
  config: AppConfig,
  logger: AppLogger,
  subscribers: (platform: Omit<Platform, 'engine'>) => Subscriber[],
): Promise<Platform> {
  const { events, readStore } = await openStores(config);
  const sandboxClock = config.sandbox ? await restoreSandboxClock(readStore) : null;
  const clock = sandboxClock ?? realTime;
  const metrics = new MetricsRegistry();
  const instanceId = `${process.pid}-${randomUUID()}`;
  const timers = new TimerWorker(readStore, clock, logger, {
    owner: instanceId,
    pollIntervalMs: 250,
    leaseMs: 30_000,
    batchSize: 256,
    concurrency: 64,
    retryDelayMs: (attempts) => (attempts >= 10 ? null : Math.min(2 ** attempts * 1000, 3_600_000)),
    realNowMs,
  });
  const base = { config, logger, clock, sandboxClock, events, readStore, metrics, aggregates: new AggregateRepository(events, clock, metrics), timers, instanceId };
  const engine = new ProjectionEngine(subscribers(base), events, readStore, logger, {
    owner: instanceId,
    leaseMs: 15_000,
    catchUpBatchSize: 500,
    retryDelayMs: (failures) => Math.min(250 * 2 ** failures, 30_000),
    realNowMs,
  });
  return { ...base, engine };
}

async function restoreSandboxClock(store: ReadStore): Promise<SandboxClock> {
  const saved = await store.getOperational<{ id: string; offsetMs: number }>(SANDBOX_CLOCK_DOC.collection, SANDBOX_CLOCK_DOC.id);
  return new SandboxClock(saved?.offsetMs ?? 0, realTime);
}
