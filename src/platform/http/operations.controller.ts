import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiData, ApiRaw } from './openapi';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { READ_STORE, StoreLifecycle } from '../read-store/read-store.port';
import { TIMER_STORE, TimerStore } from '../read-store/timer-store.port';
import { ProjectionEngine } from '../projections/projection-engine';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { Public } from './route-auth';

class ProjectionStatusDto {
  @ApiProperty({ example: 'splits' }) name!: string;
  @ApiProperty({ enum: ['projection', 'processor'] }) kind!: string;
  @ApiProperty({ example: 41 }) checkpoint!: number;
  @ApiProperty({ example: 0, description: 'Events not yet considered' }) lag!: number;
  @ApiProperty({ enum: ['running', 'stalled'] }) status!: string;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

class ParkedTimersDto {
  @ApiProperty({ example: 'split.row_transfer' }) kind!: string;
  @ApiProperty({ example: 1 }) count!: number;
}

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status!: string;
  @ApiProperty({ enum: ['up', 'down'] }) eventStore!: string;
  @ApiProperty({ enum: ['up', 'down'] }) readStore!: string;
  @ApiProperty({ type: [ProjectionStatusDto] }) projections!: ProjectionStatusDto[];
  @ApiProperty({ type: [ParkedTimersDto], description: 'Durable timers parked after repeated failures, per kind (none: empty); any makes the status degraded' })
  parkedTimers!: ParkedTimersDto[];
  @ApiProperty({ type: [String], example: ['1 parked timer of kind split.row_transfer'], description: 'Why the status is degraded (empty when ok)' })
  reasons!: string[];
}

@ApiTags('operations')
@Public()
@Controller()
export class OperationsController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: StoreLifecycle,
    @Inject(TIMER_STORE) private readonly timers: TimerStore,
    private readonly engine: ProjectionEngine,
    private readonly metrics: MetricsRegistry,
  ) {}

  @Get('health')
  @ApiOperation({
    summary: 'Event store, read store, projection lag and parked timers; 503 when a store is down or a projection is stalled, 200 "degraded" when only timers are parked',
  })
  @ApiData(HealthDto)
  @ApiResponse({
    status: 503,
    description: 'Degraded: the same report, with the store that is down or the projection that is stalled',
    schema: { type: 'object', properties: { data: { $ref: getSchemaPath(HealthDto) } } },
  })
  async health(@Res({ passthrough: true }) reply: FastifyReply) {
    const eventStore = await probe(() => this.events.headPosition());
    const readStore = await probe(() => this.store.ping());
    const storesUp = readStore === 'up' && eventStore === 'up';
    const projections = storesUp ? await this.engine.status() : [];
    const parkedTimers = readStore === 'up' ? (await this.timers.timerCounts()).filter((c) => c.status === 'parked').map(({ kind, count }) => ({ kind, count })) : [];
    const reasons = [
      ...(eventStore === 'down' ? ['event store down'] : []),
      ...(readStore === 'down' ? ['read store down'] : []),
      ...projections.filter((p) => p.status !== 'running').map((p) => `${p.kind} ${p.name} ${p.status}`),
      ...parkedTimers.map(({ kind, count }) => `${count} parked timer${count === 1 ? '' : 's'} of kind ${kind}`),
    ];
    // A parked timer needs an operator but stops no request: the service keeps serving (200), only the status says so.
    const serving = storesUp && projections.every((p) => p.status === 'running');
    void reply.status(serving ? 200 : 503);
    return {
      status: reasons.length === 0 ? 'ok' : 'degraded',
      eventStore,
      readStore,
      projections: projections.map(({ name, kind, checkpoint, lag, status, error }) => ({ name, kind, checkpoint, lag, status, error })),
      parkedTimers,
      reasons,
    };
  }

  @ApiRaw('text/plain', 'Prometheus text exposition format')
  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)' })
  async scrape(@Res() reply: FastifyReply) {
    // Raw text, outside the JSON envelope: Prometheus reads this format only.
    void reply.send(await this.metrics.render());
  }
}

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  try {
    await check();
    return 'up';
  } catch {
    return 'down';
  }
}
